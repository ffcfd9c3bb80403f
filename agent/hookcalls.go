package agent

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentcli/agent/agent/hooks"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
)

// preToolUse fires the PreToolUse hooks of call c of tool t with its
// validated input in, and returns their verdict for the approval. A hook that changed the input changes c and in:
// the new input is validated again, and one that is not valid is the
// result to answer (bad) instead of running the call; so is a hook's
// "continue": false, which also ends the turn. What they add to the
// model's context follows the call's response.
func (b *batch) preToolUse(ctx context.Context, c *xmlcall.Call, t *tools.Tool, in *tools.Input) (v HookVerdict, bad *tools.Result) {
	o := b.a.fire(ctx, hooks.Input{Event: hooks.PreToolUse, Tool: c.Name, ToolInput: in.Values})
	defer func() {
		for _, r := range o.Reports { // after the call changed: it shows as it runs
			b.a.report(ctx, r)
		}
	}()
	b.note(*c, o.Notes)
	if o.Halt {
		res := tools.Errorf(tools.CodePolicyDenied, "%s was not run: the hook %s stopped the turn: %s", c.Name, o.HaltBy, o.HaltReason)
		res.Halt = "the hook " + o.HaltBy + " ended it: " + o.HaltReason
		return v, &res
	}
	v = HookVerdict{Decision: o.Decision, By: o.DecidedBy, Reason: o.DecisionReason}
	if o.Block {
		v.By, v.Reason = o.By, o.Reason // every refusing hook's reason, in order
	}
	if o.Input == nil {
		return v, nil
	}
	raw := changedArgs(c.Args(), in.Values, o.Input)
	nt, nin, invalid := b.a.Tools.Validate(c.Name, raw)
	if invalid != nil {
		res := *invalid
		res.Message = fmt.Sprintf("%s was not run: the hook %s changed its input into one that is not valid: %s", c.Name, o.ChangedBy, invalid.Message)
		return v, &res
	}
	nin.CallID = in.CallID
	*t, *in = nt, nin
	c.Params = paramsOf(nt.Definition(), raw)
	v.Changed = o.ChangedBy
	return v, nil
}

// changedArgs are a call's parameters as text after a hook changed its
// input: a value the hook left as it was keeps the text the model wrote
// (validating it again must not trim it twice), a changed one is
// written as the model would have.
func changedArgs(raw map[string]string, before, after map[string]any) map[string]string {
	out := make(map[string]string, len(after))
	for k, v := range after {
		if old, ok := before[k]; ok && hooks.Value(old) == hooks.Value(v) {
			if text, ok := raw[k]; ok {
				out[k] = text
				continue
			}
		}
		out[k] = hooks.Value(v)
	}
	return out
}

// paramsOf lists raw's parameters in the order def gives them, any other
// after, sorted: the call as it now runs, for the faces and the log.
func paramsOf(def tools.Definition, raw map[string]string) []xmlcall.Param {
	var out []xmlcall.Param
	for _, name := range def.ParamNames() {
		if v, ok := raw[name]; ok {
			out = append(out, xmlcall.Param{Name: name, Value: v})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		if _, ok := def.Param(name); !ok {
			out = append(out, xmlcall.Param{Name: name, Value: raw[name]})
		}
	}
	return out
}

// postToolUse fires the PostToolUse hooks of call c, which ran with in
// and answered res: what they answer goes to the model after the
// responses, and a hook's "continue": false ends the turn after it.
func (b *batch) postToolUse(ctx context.Context, c xmlcall.Call, in tools.Input, res tools.Result) tools.Result {
	if !b.a.Hooks.Has(hooks.PostToolUse) {
		return res
	}
	before := b.stamps(res.Changed)
	o := b.a.FireHook(ctx, hooks.Input{Event: hooks.PostToolUse, Tool: c.Name, ToolInput: in.Values,
		ToolResponse: &hooks.Response{Code: res.Code, Message: res.Message, Content: res.Content, Changed: res.Changed}})
	b.note(c, o.Notes)
	if moved := b.changedSince(before); len(moved) > 0 {
		// A formatter rewrote what the call wrote: the model's picture
		// of it is stale, and its next write there would be refused.
		b.addNote("\n\n[The PostToolUse hooks changed %s after %s call %s wrote it: read it again before you change it further.]", strings.Join(moved, ", "), c.Name, c.ID)
	}
	if o.Halt && res.Halt == "" {
		res.Halt = "the hook " + o.HaltBy + " ended it: " + o.HaltReason
	}
	return res
}

// addNote adds to what hooks said for the model; the calls of a group
// run at once.
func (b *batch) addNote(format string, args ...any) {
	b.notesMu.Lock()
	defer b.notesMu.Unlock()
	fmt.Fprintf(&b.notes, format, args...)
}

// note keeps what hooks said of call c for the model.
func (b *batch) note(c xmlcall.Call, notes []hooks.Note) {
	for _, n := range notes {
		b.addNote("\n\n[From the hook %s, about %s call %s:]\n\n%s", n.Hook, c.Name, c.ID, strings.TrimSpace(n.Text))
	}
}

// stamp is what a file is at one moment, to tell whether it changed.
type stamp struct {
	size int64
	mod  time.Time
	ok   bool
}

// stamps are the files at the project paths paths, as they are now.
func (b *batch) stamps(paths []string) map[string]stamp {
	out := make(map[string]stamp, len(paths))
	for _, p := range paths {
		fi, err := os.Lstat(filepath.Join(b.a.Hooks.Dir(), filepath.FromSlash(p)))
		if err != nil {
			out[p] = stamp{}
			continue
		}
		out[p] = stamp{size: fi.Size(), mod: fi.ModTime(), ok: true}
	}
	return out
}

// changedSince lists the paths of before that are not as they were.
func (b *batch) changedSince(before map[string]stamp) []string {
	var out []string
	now := b.stamps(slices.Collect(maps.Keys(before)))
	for p, st := range before {
		if now[p] != st {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

package hooks

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// maxNote bounds what one hook adds to the model's context (Claude Code
// keeps 10,000 characters).
const maxNote = 10_000

// Outcome is what the hooks of one event said together, applied in
// config order.
type Outcome struct {
	// Reports are what each hook did that a person should know, in
	// config order.
	Reports []Report
	// Block: the call is refused (PreToolUse), the prompt is not sent
	// (UserPromptSubmit), the model goes on (Stop, SubagentStop).
	// Reason says why (every blocking hook's reason, in order), for the
	// model, or for the person of a prompt; By names the first hook
	// that blocked.
	Block  bool
	Reason string
	By     string
	// Decision is PreToolUse's permission decision ("allow", "ask",
	// "deny", or "" for none): deny beats ask beats allow. DecidedBy
	// names the hook that gave it, DecisionReason its reason.
	Decision, DecidedBy, DecisionReason string
	// Input is the call's input as the hooks changed it, by the agent's
	// names (PreToolUse); nil when none changed it or the call is
	// refused. ChangedBy names the hooks that changed it.
	Input     map[string]any
	ChangedBy string
	// Notes are what the hooks add to the model's context: their
	// additionalContext, a PostToolUse hook's answer, the standard
	// output of SessionStart and UserPromptSubmit hooks.
	Notes []Note
	// Halt: a hook said "continue": false, so the turn ends; HaltReason
	// (its stopReason) is for the person, HaltBy names it.
	Halt               bool
	HaltReason, HaltBy string
}

// Note is a hook's text for the model.
type Note struct {
	Hook, Text string
}

// What a hook did, as a Report names it.
const (
	ActionBlocked  = "blocked"  // refused the call, or the prompt
	ActionAllowed  = "allowed"  // let the call run without a question
	ActionAsked    = "asked"    // put the call to the person
	ActionChanged  = "changed"  // changed the call's input
	ActionContext  = "context"  // added to the model's context
	ActionFeedback = "feedback" // answered a call that ran
	ActionGoOn     = "go_on"    // kept the model going at its stop
	ActionStopped  = "stopped"  // ended the turn (continue: false)
	ActionSaid     = "said"     // a message for the person
	ActionFailed   = "failed"   // failed; work went on
)

// Report is one thing a hook did that a person should know.
type Report struct {
	Hook  string `json:"hook"`
	Event Event  `json:"event"`
	// Tool is the call's tool, for a tool event.
	Tool   string `json:"tool,omitempty"`
	Action string `json:"action"`
	// Detail is the reason, what changed, or why it failed.
	Detail string `json:"detail,omitempty"`
	// Origin is the configuration file of the hook; Project is true
	// for the project's own (run in the sandbox).
	Origin  string `json:"origin"`
	Project bool   `json:"project,omitempty"`
}

// Text is the report in one line, for a person: `hook check.sh blocked
// write_file: only the docs may change`.
func (r Report) Text() string {
	what := r.Tool
	if what == "" {
		what = map[Event]string{UserPromptSubmit: "the prompt", SessionStart: "the session", PreCompact: "the compaction",
			Stop: "the turn", SubagentStop: "the sub-agent", Notification: "the notification", SessionEnd: "the session's end"}[r.Event]
	}
	var s string
	switch r.Action {
	case ActionBlocked:
		s = "blocked " + what
	case ActionAllowed:
		s = "allowed " + what
	case ActionAsked:
		s = "asks you about " + what
	case ActionChanged:
		s = "changed the input of " + what
	case ActionContext:
		s = "added context to " + what
	case ActionFeedback:
		s = "answered " + what
	case ActionGoOn:
		s = "kept the model going"
	case ActionStopped:
		s = "stopped the turn"
	case ActionSaid:
		s = "says"
	default:
		s = "failed on " + string(r.Event)
		if r.Tool != "" {
			s += " of " + r.Tool
		}
	}
	line := "hook " + r.Hook + " " + s
	if r.Detail != "" {
		line += ": " + oneLine(r.Detail, 300)
	}
	return line
}

// oneLine folds s onto one line of at most n bytes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 { // not inside a character
		cut--
	}
	return s[:cut] + "…"
}

// bound cuts s, text for the model, at maxNote bytes, saying so.
func bound(s string) string {
	if len(s) <= maxNote {
		return s
	}
	cut := maxNote
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[… %d more bytes cut]", len(s)-cut)
}

// add applies hook h's verdict v on in, after those of the hooks before
// it in config order.
func (o *Outcome) add(h Hook, in Input, dir string, v verdict) {
	report := func(action, detail string) {
		o.Reports = append(o.Reports, Report{Hook: h.Name(), Event: in.Event, Tool: in.Tool, Action: action, Detail: detail, Origin: h.Origin, Project: h.Project})
	}
	if v.failed != "" {
		report(ActionFailed, v.failed)
		return
	}
	if v.message != "" {
		report(ActionSaid, v.message)
	}
	if v.halt && !o.Halt {
		o.Halt, o.HaltReason, o.HaltBy = true, v.haltReason, h.Name()
		report(ActionStopped, v.haltReason)
	}
	o.decide(h, in, v, report)
	if v.input != nil && !v.block {
		o.change(h, in, dir, v.input, report)
	}
	if v.feedback != "" {
		o.Notes = append(o.Notes, Note{Hook: h.Name(), Text: bound(v.feedback)})
		report(ActionFeedback, v.feedback)
	}
	if v.context != "" {
		o.Notes = append(o.Notes, Note{Hook: h.Name(), Text: bound(v.context)})
		report(ActionContext, "")
	}
	if o.Decision == "deny" {
		o.Input, o.ChangedBy = nil, "" // a refused call runs with nothing
	}
}

// decide applies a hook's block and permission decision.
func (o *Outcome) decide(h Hook, in Input, v verdict, report func(action, detail string)) {
	if v.block {
		if !o.Block {
			o.By = h.Name()
		}
		o.Block = true
		o.Reason = strings.TrimPrefix(o.Reason+"\n"+bound(v.reason), "\n")
		if in.Event == Stop || in.Event == SubagentStop {
			report(ActionGoOn, v.reason)
		} else {
			report(ActionBlocked, v.reason)
		}
	}
	rank := map[string]int{"": 0, "allow": 1, "ask": 2, "deny": 3}
	if rank[v.decision] > rank[o.Decision] {
		o.Decision, o.DecidedBy, o.DecisionReason = v.decision, h.Name(), v.reason
	}
	switch v.decision {
	case "allow":
		report(ActionAllowed, v.reason)
	case "ask":
		report(ActionAsked, v.reason)
	}
}

// change applies a hook's updatedInput over the input so far: a shallow
// merge (the keys it gives replace those of the input), by the names of
// its format.
func (o *Outcome) change(h Hook, in Input, dir string, updated map[string]any, report func(action, detail string)) {
	current := o.Input
	if current == nil {
		current = maps.Clone(in.ToolInput)
		if current == nil {
			current = map[string]any{}
		}
	}
	var next map[string]any
	if h.Claude {
		_, theirs := toClaude(in.Tool, current, dir)
		next = fromClaude(in.Tool, current, merge(theirs, updated), dir)
	} else {
		next = merge(current, updated)
	}
	changed := changedKeys(current, next)
	if len(changed) == 0 {
		return
	}
	o.Input = next
	o.ChangedBy = strings.TrimPrefix(o.ChangedBy+", "+h.Name(), ", ")
	report(ActionChanged, strings.Join(changed, ", "))
}

// merge is base with patch's keys over it; a null removes the key.
func merge(base, patch map[string]any) map[string]any {
	out := maps.Clone(base)
	if out == nil {
		out = map[string]any{}
	}
	for k, v := range patch {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
}

// changedKeys are the keys whose values differ between a and b, sorted,
// each with its new value when short: "file_path = docs/b.md, content".
func changedKeys(a, b map[string]any) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(merge(a, b))) {
		av, aok := a[k]
		bv, bok := b[k]
		if aok == bok && fmt.Sprint(av) == fmt.Sprint(bv) { // 3 and json.Number("3") alike
			continue
		}
		if s := fmt.Sprint(bv); bok && len(s) <= 60 && !strings.Contains(s, "\n") {
			out = append(out, k+" = "+s)
		} else {
			out = append(out, k)
		}
	}
	return out
}

package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// blockExit is the exit code with which a hook blocks what its event is
// about (Claude Code's): the call, the prompt, the stop.
const blockExit = 2

// verdict is what one hook said, read from its exit and output.
type verdict struct {
	// failed says why the hook failed (shown to the person; work goes
	// on); the rest is then empty.
	failed string
	// block: the call is refused (PreToolUse), the prompt not sent
	// (UserPromptSubmit), the model goes on (Stop, SubagentStop).
	block  bool
	reason string
	// decision is PreToolUse's permissionDecision: allow, ask or deny
	// (block is then set too).
	decision string
	// input is the hook's updatedInput, by the names of its format.
	input map[string]any
	// context is added to what the model sees; feedback too, as the
	// hook's answer to a call that ran (PostToolUse).
	context, feedback string
	// halt: continue was false; the turn ends, haltReason is for the
	// person.
	halt       bool
	haltReason string
	// message is for the person (systemMessage, or the standard error
	// of exit 2 where nothing can be blocked).
	message string
}

// output is the JSON object a hook may write on standard output.
type output struct {
	Continue      *bool  `json:"continue"`
	StopReason    string `json:"stopReason"`
	SystemMessage string `json:"systemMessage"`
	Decision      string `json:"decision"`
	Reason        string `json:"reason"`
	Specific      struct {
		PermissionDecision       string         `json:"permissionDecision"`
		PermissionDecisionReason string         `json:"permissionDecisionReason"`
		UpdatedInput             map[string]any `json:"updatedInput"`
		AdditionalContext        string         `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// read is what hook h said about in, from how it ran.
func read(h Hook, in Input, dir string, r ran) verdict {
	switch {
	case errors.Is(r.err, context.Canceled):
		return verdict{} // the person stopped the work: nothing to say
	case r.err != nil:
		return verdict{failed: r.err.Error()}
	case r.code == blockExit:
		return blocked(in.Event, firstNonEmpty(trimmed(r.stderr), "(it gave no reason)"))
	case r.code != 0:
		why := fmt.Sprintf("exit status %d", r.code)
		if r.code < 0 {
			why = "ended by a signal"
		}
		if line := firstLine(trimmed(r.stderr)); line != "" {
			why += ": " + line
		}
		return verdict{failed: why}
	}
	out := trimmed(r.stdout)
	if !strings.HasPrefix(out, "{") {
		if in.Event == UserPromptSubmit || in.Event == SessionStart {
			return verdict{context: out} // plain text is context for these two
		}
		return verdict{}
	}
	var o output
	dec := json.NewDecoder(bytes.NewReader(r.stdout))
	dec.UseNumber()
	if err := dec.Decode(&o); err != nil {
		return verdict{failed: "its output is not valid JSON: " + err.Error()}
	}
	return o.verdict(in.Event)
}

// blocked is the verdict of exit 2 with stderr's reason.
func blocked(e Event, reason string) verdict {
	switch e {
	case PreToolUse:
		return verdict{block: true, decision: "deny", reason: reason}
	case UserPromptSubmit, Stop, SubagentStop:
		return verdict{block: true, reason: reason}
	case PostToolUse:
		return verdict{feedback: reason} // the call ran: the model is told
	}
	return verdict{message: reason} // nothing to block: the person is told
}

// haltable are the events a hook's "continue": false ends the turn at;
// at the others the work is done, or not the turn's.
var haltable = map[Event]bool{UserPromptSubmit: true, PreToolUse: true, PostToolUse: true, Stop: true}

// verdict reads the JSON output of a hook of event e.
func (o output) verdict(e Event) verdict {
	v := verdict{message: o.SystemMessage, context: o.Specific.AdditionalContext}
	if o.Continue != nil && !*o.Continue && haltable[e] {
		v.halt, v.haltReason = true, firstNonEmpty(o.StopReason, "(no reason given)")
	}
	switch e {
	case PreToolUse:
		d, why := o.Specific.PermissionDecision, o.Specific.PermissionDecisionReason
		if d == "" { // the older form
			d, why = map[string]string{"approve": "allow", "block": "deny"}[o.Decision], o.Reason
		}
		switch d {
		case "", "allow", "ask":
			v.decision, v.reason = d, why
		case "deny":
			v.block, v.decision, v.reason = true, d, firstNonEmpty(why, "(it gave no reason)")
		default:
			return verdict{failed: fmt.Sprintf("permissionDecision %q is none of allow, ask and deny", d)}
		}
		v.input = o.Specific.UpdatedInput
	case PostToolUse:
		if o.Decision == "block" {
			v.feedback = firstNonEmpty(o.Reason, "(it gave no reason)")
		}
	case UserPromptSubmit, Stop, SubagentStop:
		if o.Decision == "block" {
			if o.Reason == "" && e != UserPromptSubmit {
				return verdict{failed: `decision "block" without a reason: the model would not know what to do`}
			}
			v.block, v.reason = true, firstNonEmpty(o.Reason, "(it gave no reason)")
		}
	}
	return v
}

func trimmed(b []byte) string { return strings.TrimSpace(string(b)) }

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

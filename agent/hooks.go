package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentcli/agent/agent/hooks"
	"github.com/agentcli/agent/agent/xmlcall"
)

// This file is the loop's side of the hooks (package hooks): it fires
// them with the session's facts, shows what each did as an EventHook,
// writes one audit line per decision, and keeps what they add to the
// model's context until the next request.

// HookVerdict is what the PreToolUse hooks said of a call, for its
// approval (the "hook" rule in approval_rules.go).
type HookVerdict struct {
	// Decision is "allow", "ask", "deny" or "" (none).
	Decision string
	// By names the hook that decided; Reason is its reason.
	By, Reason string
	// Changed names the hooks that changed the call's input, "" when
	// none did: the person asked about it is told.
	Changed string
}

// hookEmitKey finds in a context where a hook fired in it reports: the
// emit of the run, or of the call, it belongs to.
type hookEmitKey struct{}

// WithHookEvents is ctx whose hooks report to emit: what a hook fired
// in it (FireHook, Notify) does is an EventHook there. Run and each call
// set it for what they fire; a caller firing hooks outside a run sets it
// to show what they do.
func WithHookEvents(ctx context.Context, emit func(Event)) context.Context {
	return context.WithValue(ctx, hookEmitKey{}, emit)
}

// FireHook runs the hooks of in's event with the session's facts filled
// in, and returns what they said. What each hook did is an EventHook to
// the run ctx belongs to (attached to the call, inside one) and a line
// of the audit log. Without hooks for the event it does nothing. The
// loop fires the events itself; a tool that runs a sub-agent fires
// SubagentStop with it when the sub-agent answers (its Block: the
// sub-agent goes on with the Reason, StopHookActive set the next time).
func (a *Agent) FireHook(ctx context.Context, in hooks.Input) hooks.Outcome {
	o := a.fire(ctx, in)
	for _, r := range o.Reports {
		a.report(ctx, r)
	}
	return o
}

// fire runs the hooks of in's event, with the session's facts, and
// reports nothing yet.
func (a *Agent) fire(ctx context.Context, in hooks.Input) hooks.Outcome {
	if a.Hooks == nil || !a.Hooks.Has(in.Event) {
		return hooks.Outcome{}
	}
	if a.Session != nil {
		in.SessionID, in.TranscriptPath = a.Session.ID, a.Session.Path()
	}
	return a.Hooks.Fire(ctx, in)
}

// report shows what a hook did to the run ctx belongs to, and writes its
// audit line. A failure to write the line is left to the call's own
// line, or the next, to report.
func (a *Agent) report(ctx context.Context, r hooks.Report) {
	if emit, _ := ctx.Value(hookEmitKey{}).(func(Event)); emit != nil {
		emit(Event{Type: EventHook, Hook: &r, Text: r.Text()})
	}
	if a.Audit == nil || a.Session == nil {
		return
	}
	e := AuditEntry{Time: a.now().UTC(), Session: a.Session.ID, Tool: r.Tool, Hook: r.Hook, Event: string(r.Event), Outcome: r.Action, Detail: auditText(r.Detail)}
	if c, ok := ctx.Value(hookCallKey{}).(*xmlcall.Call); ok {
		e.CallID = c.ID
	}
	_ = a.Audit.Record(e)
}

// hookCallKey finds in a context the call its hooks are fired for.
type hookCallKey struct{}

// forCall is ctx for the hooks fired for call c of iteration iter: what
// they do shows on c's card, and their audit lines name it.
func forCall(ctx context.Context, c *xmlcall.Call, iter int, emit func(Event)) context.Context {
	ctx = context.WithValue(ctx, hookCallKey{}, c)
	return WithHookEvents(ctx, func(e Event) {
		shown := *c // as it is now: a hook may change it later
		shown.Params = slices.Clone(c.Params)
		e.Iteration, e.Call = iter, &shown
		emit(e)
	})
}

// SubmitPrompt fires the UserPromptSubmit hooks for the person's
// message, before the turn begins: what they add to the context goes
// with the message (Run), and a hook that blocks it returns a
// *PromptBlockedError: the message is not sent.
func (a *Agent) SubmitPrompt(ctx context.Context, prompt string, emit func(Event)) error {
	if emit != nil {
		ctx = WithHookEvents(ctx, emit)
	}
	o := a.FireHook(ctx, hooks.Input{Event: hooks.UserPromptSubmit, Prompt: prompt})
	switch {
	case o.Block:
		return &PromptBlockedError{Hook: o.By, Reason: o.Reason}
	case o.Halt:
		return &PromptBlockedError{Hook: o.HaltBy, Reason: o.HaltReason}
	}
	a.hookNotes = append(a.hookNotes, o.Notes...)
	return nil
}

// SessionStarted fires the SessionStart hooks (source: "startup",
// "resume" or "clear"); what they add to the context goes with the next
// message. It returns what the hooks did, for a conversation that has no
// run to show it in yet.
func (a *Agent) SessionStarted(ctx context.Context, source string) []hooks.Report {
	o := a.FireHook(ctx, hooks.Input{Event: hooks.SessionStart, Source: source})
	a.hookNotes = append(a.hookNotes, o.Notes...)
	return o.Reports
}

// SessionEnded fires the SessionEnd hooks (reason: "exit", "clear" or
// "resume") and returns what they did.
func (a *Agent) SessionEnded(ctx context.Context, reason string) []hooks.Report {
	return a.FireHook(ctx, hooks.Input{Event: hooks.SessionEnd, Reason: reason}).Reports
}

// PromptBlockedError is SubmitPrompt's error: a UserPromptSubmit hook
// blocked the person's message, which was not sent.
type PromptBlockedError struct {
	Hook, Reason string
}

func (e *PromptBlockedError) Error() string {
	return "the message was not sent: the hook " + e.Hook + " blocked it"
}

// takeHookNotes returns what the hooks added to the context since the
// last request, as text to go before the person's message.
func (a *Agent) takeHookNotes() string {
	var b strings.Builder
	for _, n := range a.hookNotes {
		fmt.Fprintf(&b, "[Context from the hook %s.]\n\n%s\n\n", n.Hook, strings.TrimSpace(n.Text))
	}
	a.hookNotes = nil
	return strings.TrimSuffix(b.String(), "\n\n")
}

// maxStopHooks is how many times in a row Stop hooks may keep the model
// going in one run: a hook that never lets it stop must not loop for
// ever.
const maxStopHooks = 3

// stopHooks fires the Stop hooks when the model answered: it returns what the model is told to go on with, or "" when the
// turn ends. stops counts the times they kept it going in this run.
func (a *Agent) stopHooks(ctx context.Context, answer string, stops *int) string {
	if a.Sub {
		return ""
	}
	o := a.fire(ctx, hooks.Input{Event: hooks.Stop, Answer: answer, StopHookActive: *stops > 0})
	capped := o.Block && *stops >= maxStopHooks
	for _, r := range o.Reports {
		if capped && r.Action == hooks.ActionGoOn {
			r.Action = hooks.ActionFailed
			r.Detail = fmt.Sprintf("it asked to go on more than %d times in a row, which is not followed: the turn ends (it said: %s)", maxStopHooks, r.Detail)
		}
		a.report(ctx, r)
	}
	if !o.Block || o.Halt || capped {
		return ""
	}
	*stops++
	return fmt.Sprintf("[The hook %s did not let you stop yet. Go on with this:]\n\n%s", o.By, o.Reason)
}

package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
)

// batch is the state of running the calls of one reply.
type batch struct {
	a         *Agent
	changeSet string
	iter      int
	// failed is the first call of the reply that failed, if any: later
	// writes of the same reply are skipped (protocol.md §4).
	failed *CallResult
	// nested sums the tokens the calls' sub-agents spent (RunNested).
	nested usageSum
	// notes are what hooks said of the calls, for the model: they follow
	// the tool responses (hookcalls.go).
	notes strings.Builder
}

// run answers every item of the reply in order, emitting a result event
// for each, and returns the responses to send back. A Go error is a
// failure of the program (a tool's infrastructure, the audit log, an
// interrupted approval), or a call's result that stops the turn
// (HaltError), and ends the run.
func (b *batch) run(ctx context.Context, items []item, emit func(Event)) ([]CallResult, error) {
	results := make([]CallResult, 0, len(items))
	// runErr ends the run after this call's answer when the call was
	// interrupted while it ran: it did run, and its answer says so.
	var runErr error
	for _, it := range items {
		var cr CallResult
		declined := false // a person said no: not a failure (protocol.md §4)
		if it.err != nil {
			cr = brokenResult(it.err)
		} else {
			cr, declined, runErr = b.call(ctx, *it.call, emit)
			if runErr != nil && cr.Result.Code != tools.CodeInterrupted {
				return results, runErr
			}
		}
		if cr.Result.IsError() && b.failed == nil && !declined {
			b.failed = &cr
		}
		if err := b.a.Audit.Record(AuditEntry{
			Time:       b.a.now().UTC(),
			Session:    b.a.Session.ID,
			ChangeSet:  b.changeSet,
			CallID:     cr.ID,
			Tool:       cr.Tool,
			Params:     paramMap(cr.Params),
			Outcome:    cr.Outcome(),
			Code:       cr.Result.Code,
			DurationMS: durationMS(cr.Duration),
			Rule:       cr.Rule,
		}); err != nil {
			// The call has its answer; only the log failed.
			return append(results, cr), err
		}
		results = append(results, cr)
		emit(Event{Type: EventResult, Iteration: b.iter, Result: &cr})
		if err := b.a.keepTodos(cr, b.iter, emit); err != nil {
			return results, err
		}
		if runErr != nil {
			return results, runErr
		}
		if cr.Result.Halt != "" {
			return results, &HaltError{Tool: cr.Tool, Reason: cr.Result.Halt}
		}
	}
	return results, nil
}

// call validates, checks and runs one complete call. declined is true
// when a person refused it.
func (b *batch) call(ctx context.Context, c xmlcall.Call, emit func(Event)) (cr CallResult, declined bool, err error) {
	cr = CallResult{ID: c.ID, Tool: c.Name, Params: c.Params}
	raw := c.Args()
	t, ok := b.a.Tools.Lookup(c.Name)
	if ok && t.Definition().Writes && b.failed != nil && skipAfterFailure {
		cr.Result = tools.Errorf(tools.CodeSkipped, "%s was not run because call %s (%s) failed earlier in this reply; fix that first, then send this call again", c.Name, b.failed.ID, b.failed.Tool)
		return cr, false, nil
	}
	t, in, bad := b.a.Tools.Validate(c.Name, raw)
	if bad != nil {
		cr.Result = *bad
		if res, ok := b.a.describe(c.Name, bad); ok {
			cr.Result = res
		}
		return cr, false, nil
	}
	in.CallID = c.ID
	def := t.Definition()
	key := callKey(def, raw)
	if b.a.repeats.stuck(key) {
		cr.Result = repeatedResult(c.Name)
		return cr, false, nil
	}
	info := tools.CallInfo{SessionID: b.a.Session.ID, CallID: c.ID, ChangeSet: b.changeSet}
	ctx = tools.WithInfo(ctx, info)
	ctx = forCall(ctx, &c, b.iter, emit)
	hook, bad := b.preToolUse(ctx, &c, &t, &in)
	cr.Params = c.Params
	if bad != nil {
		cr.Result = *bad
		return cr, false, nil
	}
	if def.Writes || hook.Decision == "deny" || hook.Decision == "ask" { // a read needs no allow
		asking := func(q Question) {
			b.a.notify(ctx, b.iter, emit, Notification{Kind: NotifyApproval, Message: "approve " + q.Preview.Summary + "?"})
		}
		v, err := b.a.approval().decide(ctx, t, Question{Call: c, Tool: def, Input: in, Hook: hook}, asking)
		if err != nil {
			return cr, false, err
		}
		cr.Rule, cr.DecidedBy = v.rule, v.by
		if v.deny != nil {
			cr.Result = *v.deny
			cr.ByPolicy = v.byPolicy
			return cr, !v.byPolicy, nil
		}
	}
	started := Event{Type: EventToolStart, Iteration: b.iter, Call: &c, Rule: cr.Rule}
	if cr.Rule != "" {
		started.Subject = def.Subject(c.Args())
	}
	emit(started)
	ctx = withParent(ctx, &b.nested, &c, b.iter, emit)
	ctx = b.a.withUserAsker(ctx, b.iter, emit)
	ctx = tools.WithOutput(ctx, func(out []byte) {
		emit(Event{Type: EventOutput, Iteration: b.iter, Call: &c, Text: string(out)})
	})
	start := b.a.now()
	res, err := b.a.Tools.Execute(ctx, t, in)
	cr.Duration = b.a.now().Sub(start)
	if err != nil {
		if res.Code == tools.CodeInterrupted {
			cr.Result = res // it ran until stopped: not "not run"
		}
		return cr, false, fmt.Errorf("tool %s: %w", c.Name, err)
	}
	res = b.a.seeImage(ctx, res)
	if !res.IsError() {
		res = b.postToolUse(ctx, c, in, res)
	}
	cr.Result = res
	if def.Writes && !res.IsError() {
		// Something changed: a read that got the same result twice may
		// now get another, so no earlier call counts as stuck.
		b.a.repeats = newRepeats()
	}
	b.a.repeats.record(key, res)
	return cr, false, nil
}

// brokenResult answers a call the Scanner could not read whole. It never
// runs; for a call cut off mid-way the message says how to avoid the cut,
// because the usual cause is a reply that hit the output limit while
// writing a large file, and a model told only "incomplete" sends the same
// too-long call again.
func brokenResult(e *xmlcall.Error) CallResult {
	cr := CallResult{ID: e.ID, Tool: e.Name}
	msg := e.Message
	if e.Code == xmlcall.CodeIncomplete {
		msg += "; it was not run. The reply was probably cut off by the output limit: send long content in smaller pieces, first a write with the first part and then partial writes that add the rest (start_line = last line + 1 appends), one piece per reply"
	}
	cr.Result = tools.Result{Code: e.Code, Message: msg}
	return cr
}

// Response returns the <tool_response> block the model gets for r.
func (r CallResult) Response() xmlcall.Response {
	meta := make([]xmlcall.Attr, len(r.Result.Metadata))
	for j, m := range r.Result.Metadata {
		meta[j] = xmlcall.Attr{Name: m.Name, Value: m.Value}
	}
	return xmlcall.Response{
		ID:       r.ID,
		Name:     r.Tool,
		Params:   r.Params,
		Code:     r.Result.Code,
		Message:  r.Result.Message,
		Metadata: meta,
		Content:  r.Result.Content,
	}
}

// responses turns results into the blocks of the next user turn.
func responses(results []CallResult) []xmlcall.Response {
	rs := make([]xmlcall.Response, len(results))
	for i, cr := range results {
		rs[i] = cr.Response()
	}
	return rs
}

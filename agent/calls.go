package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"

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
	// notesMu guards notes: the calls of a group run at once.
	notesMu sync.Mutex
	// notes are what hooks said of the calls, for the model: they follow
	// the tool responses (hookcalls.go).
	notes strings.Builder
}

// run answers every item of the reply in order, emitting a result event
// for each, and returns the responses to send back. Calls that may run
// at the same time (concurrent) run together, up to Agent.MaxParallel;
// their answers are still given in the reply's order. A Go error is a
// failure of the program (a tool's infrastructure, the audit log, an
// interrupted approval), or a call's result that stops the turn
// (HaltError), and ends the run.
func (b *batch) run(ctx context.Context, items []item, emit func(Event)) ([]CallResult, error) {
	emit = serialized(emit) // the calls of a group report from their own goroutines
	results := make([]CallResult, 0, len(items))
	for i := 0; i < len(items); {
		n := b.together(items[i:])
		outs, err := b.group(ctx, items[i:i+n], emit)
		if err != nil {
			return results, err
		}
		// An interrupted call did run, and its answer says so; so did
		// the others of its group. Then the run ends, as after a halt.
		var stop error
		for _, o := range outs {
			cr := o.cr
			if cr.Result.IsError() && b.failed == nil && !o.declined {
				b.failed = &cr
			}
			if err := b.audit(cr); err != nil {
				// The call has its answer; only the log failed.
				return append(results, cr), err
			}
			results = append(results, cr)
			emit(Event{Type: EventResult, Iteration: b.iter, Result: &cr})
			if err := b.a.keepTodos(cr, b.iter, emit); err != nil {
				return results, err
			}
			switch {
			case stop != nil:
			case o.err != nil:
				stop = o.err
			case cr.Result.Halt != "":
				stop = &HaltError{Tool: cr.Tool, Reason: cr.Result.Halt}
			}
		}
		if stop != nil {
			return results, stop
		}
		i += n
	}
	return results, nil
}

// outcome is one call's answer: declined is true when a person refused
// it; err, an interruption while it ran, ends the run once the answer is
// recorded.
type outcome struct {
	cr       CallResult
	declined bool
	err      error
}

// group answers items, which run at the same time when there are
// several (together). A Go error other than an interrupted call's ends
// the run at once.
func (b *batch) group(ctx context.Context, items []item, emit func(Event)) ([]outcome, error) {
	outs := make([]outcome, len(items))
	if len(items) == 1 {
		o, err := b.one(ctx, items[0], emit)
		outs[0] = o
		return outs, err
	}
	ready := make([]*readyCall, len(items))
	for i, it := range items {
		r, cr, declined, err := b.prepare(ctx, *it.call, emit)
		if err != nil {
			return nil, err
		}
		ready[i], outs[i] = r, outcome{cr: cr, declined: declined}
	}
	var wg sync.WaitGroup
	for i, r := range ready {
		if r == nil {
			continue // answered without running (a repeat)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i].cr, outs[i].err = b.execute(ctx, r, emit)
		}()
	}
	wg.Wait()
	for i, r := range ready {
		if r != nil && outs[i].err == nil {
			b.settle(r, outs[i].cr)
		}
		if err := outs[i].err; err != nil && outs[i].cr.Result.Code != tools.CodeInterrupted {
			return nil, err
		}
	}
	return outs, nil
}

// one answers one item on its own.
func (b *batch) one(ctx context.Context, it item, emit func(Event)) (outcome, error) {
	if it.err != nil {
		return outcome{cr: brokenResult(it.err)}, nil
	}
	r, cr, declined, err := b.prepare(ctx, *it.call, emit)
	if r == nil || err != nil {
		return outcome{cr: cr, declined: declined}, err
	}
	cr, err = b.execute(ctx, r, emit)
	if err == nil {
		b.settle(r, cr)
	}
	if err != nil && cr.Result.Code != tools.CodeInterrupted {
		return outcome{cr: cr}, err
	}
	return outcome{cr: cr, err: err}, nil
}

// audit records cr in the audit log.
func (b *batch) audit(cr CallResult) error {
	return b.a.Audit.Record(AuditEntry{
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
	})
}

// readyCall is a call that passed its checks and approval, ready to run.
type readyCall struct {
	c    xmlcall.Call
	t    tools.Tool
	in   tools.Input
	key  [32]byte // for the repeats of the run
	rule string   // the permission rule that allowed it, if one did
	// cr is its result so far: who decided it.
	cr CallResult
}

// prepare validates, checks and, for a write, approves one complete
// call. A call answered without running (invalid, skipped, a repeat,
// refused) comes back as its result with a nil readyCall; declined is
// true when a person refused it.
func (b *batch) prepare(ctx context.Context, c xmlcall.Call, emit func(Event)) (r *readyCall, cr CallResult, declined bool, err error) {
	cr = CallResult{ID: c.ID, Tool: c.Name, Params: c.Params}
	raw := c.Args()
	t, ok := b.a.Tools.Lookup(c.Name)
	if ok && t.Definition().Writes && b.failed != nil && skipAfterFailure {
		cr.Result = tools.Errorf(tools.CodeSkipped, "%s was not run because call %s (%s) failed earlier in this reply; fix that first, then send this call again", c.Name, b.failed.ID, b.failed.Tool)
		return nil, cr, false, nil
	}
	t, in, bad := b.a.Tools.Validate(c.Name, raw)
	if bad != nil {
		cr.Result = *bad
		if res, ok := b.a.describe(c.Name, bad); ok {
			cr.Result = res
		}
		return nil, cr, false, nil
	}
	in.CallID = c.ID
	def := t.Definition()
	key := callKey(def, raw)
	if b.a.repeats.stuck(key) {
		cr.Result = repeatedResult(c.Name)
		return nil, cr, false, nil
	}
	ctx = b.info(ctx, c)
	ctx = forCall(ctx, &c, b.iter, emit)
	hook, bad := b.preToolUse(ctx, &c, &t, &in)
	cr.Params = c.Params
	if bad != nil {
		cr.Result = *bad
		return nil, cr, false, nil
	}
	def = t.Definition()
	if def.Writes || hook.Decision == "deny" || hook.Decision == "ask" { // a read needs no allow
		asking := func(q Question) {
			b.a.notify(ctx, b.iter, emit, Notification{Kind: NotifyApproval, Message: "approve " + q.Preview.Summary + "?"})
		}
		v, err := b.a.approval().decide(ctx, t, Question{Call: c, Tool: def, Input: in, Agent: b.a.Name, Hook: hook}, asking)
		if err != nil {
			return nil, cr, false, err
		}
		cr.Rule, cr.DecidedBy = v.rule, v.by
		if v.deny != nil {
			cr.Result = *v.deny
			cr.ByPolicy = v.byPolicy
			return nil, cr, !v.byPolicy, nil
		}
	}
	return &readyCall{c: c, t: t, in: in, key: key, rule: cr.Rule, cr: cr}, cr, false, nil
}

// info is ctx for deciding or running call c: which call it is.
func (b *batch) info(ctx context.Context, c xmlcall.Call) context.Context {
	return tools.WithInfo(ctx, tools.CallInfo{SessionID: b.a.Session.ID, CallID: c.ID, ChangeSet: b.changeSet})
}

// execute runs a ready call. It may run beside the other calls of its
// group: it changes nothing of the batch but through emit (serialized)
// and the sub-agents' token sum (locked).
func (b *batch) execute(ctx context.Context, r *readyCall, emit func(Event)) (CallResult, error) {
	c, cr := &r.c, r.cr
	def := r.t.Definition()
	started := Event{Type: EventToolStart, Iteration: b.iter, Call: c, Rule: r.rule}
	if r.rule != "" {
		started.Subject = def.Subject(c.Args())
	}
	emit(started)
	ctx = b.info(ctx, r.c)
	ctx = forCall(ctx, c, b.iter, emit)
	ctx = withParent(ctx, &b.nested, c, b.iter, emit)
	ctx = b.a.withUserAsker(ctx, b.iter, emit)
	ctx = tools.WithOutput(ctx, func(out []byte) {
		emit(Event{Type: EventOutput, Iteration: b.iter, Call: c, Text: string(out)})
	})
	start := b.a.now()
	res, err := b.a.Tools.Execute(ctx, r.t, r.in)
	cr.Duration = b.a.now().Sub(start)
	if err != nil {
		if res.Code == tools.CodeInterrupted {
			cr.Result = res // it ran until stopped: not "not run"
		}
		return cr, fmt.Errorf("tool %s: %w", c.Name, err)
	}
	cr.Result = b.a.seeImage(ctx, res)
	if !cr.Result.IsError() {
		cr.Result = b.postToolUse(ctx, *c, r.in, cr.Result)
	}
	return cr, nil
}

// settle records what a call that ran means for the rest of the run:
// after a write that changed something, no earlier call counts as stuck.
func (b *batch) settle(r *readyCall, cr CallResult) {
	if cr.Result.Code == "" && r.t.Definition().Writes {
		// Something changed: a read that got the same result twice may
		// now get another.
		b.a.repeats = newRepeats()
	}
	b.a.repeats.record(r.key, cr.Result)
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

// serialized is emit called by one goroutine at a time: the calls of a
// group, and the sub-agents they run, report from their own.
func serialized(emit func(Event)) func(Event) {
	var mu sync.Mutex
	return func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		emit(e)
	}
}

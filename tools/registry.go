package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// DefaultTimeout is the time limit of a tool that sets none.
const DefaultTimeout = 2 * time.Minute

// ErrDuplicateTool is returned by Add for a name already registered.
var ErrDuplicateTool = errors.New("duplicate tool name")

// Registry holds the tools of one agent, in the order they were added. It
// is built explicitly by the caller (no init-time self-registration), so
// each test and each mode builds exactly the set it needs. A Registry is
// safe for concurrent reads once built.
type Registry struct {
	tools   []Tool
	byName  map[string]Tool
	Timeout time.Duration // default time limit; DefaultTimeout when zero
	// After, when set, runs after each call that succeeded, outside the
	// tool's time limit, and may add to its result: the language
	// servers' diagnostics of the files it changed. The tools know
	// nothing of it.
	After func(ctx context.Context, def Definition, in Input, res *Result)
}

// NewRegistry returns a Registry holding ts. It panics on a duplicate name,
// which is a wiring mistake visible at the call site.
func NewRegistry(ts ...Tool) *Registry {
	r := &Registry{byName: make(map[string]Tool, len(ts))}
	for _, t := range ts {
		if err := r.Add(t); err != nil {
			panic(err)
		}
	}
	return r
}

// Add registers t.
func (r *Registry) Add(t Tool) error {
	name := t.Definition().Name
	if _, dup := r.byName[name]; dup {
		return fmt.Errorf("%w: %s", ErrDuplicateTool, name)
	}
	r.tools = append(r.tools, t)
	r.byName[name] = t
	return nil
}

// Lookup returns the tool called name.
func (r *Registry) Lookup(name string) (Tool, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// Tools returns the registered tools in the order they were added.
func (r *Registry) Tools() []Tool { return append([]Tool(nil), r.tools...) }

// Names returns the registered tool names in the order they were added.
func (r *Registry) Names() []string {
	names := make([]string, len(r.tools))
	for i, t := range r.tools {
		names[i] = t.Definition().Name
	}
	return names
}

// ParamNames returns the parameter names of the tool called name, and
// whether it is known. It is the lookup the protocol scanner needs to decide
// where a value ends.
func (r *Registry) ParamNames(name string) ([]string, bool) {
	t, ok := r.byName[name]
	if !ok {
		return nil, false
	}
	return t.Definition().ParamNames(), true
}

// Validate turns the parser's raw strings into typed values. On failure it
// returns an error Result (TOOL_UNKNOWN or TOOL_SCHEMA_INVALID) whose
// message says what the model should send instead.
func (r *Registry) Validate(name string, raw map[string]string) (Tool, Input, *Result) {
	t, ok := r.byName[name]
	if !ok {
		res := Errorf(CodeToolUnknown, "unknown tool %q; available tools: %s", name, strings.Join(r.Names(), ", "))
		return nil, Input{}, &res
	}
	in, res := Validate(t.Definition(), raw)
	if res != nil {
		return nil, Input{}, res
	}
	return t, in, nil
}

// Call validates and runs one call exactly as the agent loop does. It never
// panics: a panicking tool becomes an error Result. A tool that runs past
// its time limit answers TOOL_TIMEOUT. The Go error is reserved for
// failures of the program (see the package documentation) and for a
// cancelled context, which comes with a TOOL_INTERRUPTED result.
func (r *Registry) Call(ctx context.Context, name string, raw map[string]string) (Result, error) {
	t, in, res := r.Validate(name, raw)
	if res != nil {
		return *res, nil
	}
	in.CallID = Info(ctx).CallID
	return r.Execute(ctx, t, in)
}

// Execute runs a validated call under the tool's time limit, recovering
// from panics. A call interrupted by the cancellation of ctx answers
// TOOL_INTERRUPTED together with the context's error. A tool out of time is told to stop (its context ends) and
// waited for, cancelGrace at most, so that it cannot change anything
// after the model was told it stopped; the answer says when it did not
// stop in that time.
func (r *Registry) Execute(ctx context.Context, t Tool, in Input) (Result, error) {
	res, err := r.execute(ctx, t, in)
	if err == nil && !res.IsError() && r.After != nil && ctx.Err() == nil {
		r.After(ctx, t.Definition(), in, &res)
	}
	return res, err
}

func (r *Registry) execute(ctx context.Context, t Tool, in Input) (Result, error) {
	def := t.Definition()
	limit := def.Timeout
	if limit == 0 {
		limit = r.Timeout
	}
	if limit == 0 {
		limit = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()

	type outcome struct {
		res Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{res: Errorf(CodeProviderError, "tool %s failed internally (%v); this is a bug in the agent, not in your call", def.Name, p)}
			}
		}()
		res, err := t.Execute(ctx, in)
		done <- outcome{res, err}
	}()
	select {
	case o := <-done:
		if o.err != nil && ctx.Err() == context.DeadlineExceeded {
			return timeoutResult(def.Name, limit, true), nil
		}
		if o.err != nil && errors.Is(o.err, context.Canceled) {
			return interruptedResult(def.Name, o.res, true), o.err
		}
		return o.res, o.err
	case <-ctx.Done():
	}
	// Cancelled or out of time: give the tool a moment to see it and
	// stop (a write removes its temp file) instead of leaving it half
	// done, so that nothing it does lands after the answer says it
	// stopped. One that does not stop in time is said to be running.
	var o outcome
	stopped := false
	select {
	case o = <-done:
		stopped = true
	case <-time.After(cancelGrace):
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return timeoutResult(def.Name, limit, stopped), nil
	}
	return interruptedResult(def.Name, o.res, stopped), ctx.Err()
}

// interruptedResult answers a call the person interrupted while it ran:
// the tool's own answer when it gave one (a command's output so far),
// else one saying that it ran and may have changed things. Execute
// returns it with the context's error, which ends the run.
func interruptedResult(name string, res Result, stopped bool) Result {
	switch {
	case res.Code == CodeInterrupted:
		return res
	case !stopped:
		return Errorf(CodeInterrupted, "%s was interrupted by the user while it ran and did not stop when told to: it may still be running; check its effects before you try again", name)
	}
	return Errorf(CodeInterrupted, "%s was interrupted by the user while it ran; what it did before may have landed: check before you try again", name)
}

// cancelGrace is how long Execute waits for a cancelled tool, or one out
// of time, to stop.
var cancelGrace = 5 * time.Second

func timeoutResult(name string, limit time.Duration, stopped bool) Result {
	if !stopped {
		return Errorf(CodeTimeout, "tool %s ran past its time limit of %s and did not stop when told to: it may still be running, and what it changes may still land; check its effects before you try again", name, limit)
	}
	return Errorf(CodeTimeout, "tool %s ran past its time limit of %s and was stopped; try a smaller request", name, limit)
}

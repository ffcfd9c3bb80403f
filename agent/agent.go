package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentcli/agent/agent/hooks"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
)

// DefaultMaxIterations is the number of model calls one run may make
// when Agent.MaxIterations is zero.
const DefaultMaxIterations = 10

// Agent runs conversations with one model and one set of tools. Build it
// with a struct literal; Model, Tools and Session are required. One Agent
// runs one request at a time: Run must not be called concurrently (the
// conversation is one sequence of turns).
type Agent struct {
	Model   llm.Model
	Tools   *tools.Registry
	Session *Session
	// System is the system prompt.
	System string
	// MaxIterations bounds the model calls of one Run;
	// DefaultMaxIterations when zero.
	MaxIterations int
	// MaxTokens bounds each reply; 0 leaves it to the provider.
	MaxTokens int
	// Approval decides about calls that write; nil asks nobody and so
	// refuses them (the ask policy with no one to ask).
	Approval *Approval
	// Audit receives one entry per call; nil keeps none.
	Audit *Audit
	// Watcher notices project files changed by someone else between
	// turns; nil notices nothing.
	Watcher Watcher
	// Notices are what happened outside the model's calls while it was
	// not looking (a background job ended); they are drained before each
	// request, between the iterations of a run too. nil has none.
	Notices Notices
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Reasoning is the thinking level asked of the model.
	Reasoning llm.Reasoning
	// Budget keeps every request inside the model's window; nil sends
	// the conversation as it is.
	Budget *Budget
	// Instructions returns the instructions file that applies to a
	// project-relative path and was not given yet (name and text, "" when
	// none): (*prompt.Nested).For. nil gives none.
	Instructions func(path string) (name, text string)
	// MaxParallel bounds the calls of one reply that run at the same
	// time: those whose tool says they may (sub-agents that only read,
	// see concurrent). 0 or 1 runs every call alone.
	MaxParallel int
	// Name names a sub-agent (the task tool's "reviewer") in the
	// questions its calls put to a person; "" for the conversation's own
	// agent.
	Name string
	// Unshown holds the tools the system prompt only names (the
	// on-demand ones, and all but the essential ones in the small-window
	// form), each with its full definition: a valid call of one runs, the
	// first invalid one is answered with the definition too.
	Unshown map[string]string
	// Hooks are the programs run at the loop's steps (hooks.go); nil
	// runs none.
	Hooks *hooks.Runner
	// Sub marks a sub-agent's loop: of its Hooks (its parent's), only
	// the calls' PreToolUse and PostToolUse fire; its end is the
	// SubagentStop the tool that runs it fires (FireHook), not a Stop.
	Sub bool
	// AskUser puts the model's questions (ask_user) to a person; nil
	// when nobody can answer, and the question is answered at once
	// saying so.
	AskUser tools.UserAsker

	// hookNotes are what hooks added to the model's context, for the
	// next request.
	hookNotes []hooks.Note
	// described records the Unshown tools whose definition was given.
	described map[string]bool
	// repeats is the state of the current run.
	repeats *repeats
	// wrote is what the agent's own calls changed since the Watcher
	// last looked.
	wrote []string
	// attached are the images the next prompt carries (Attach, in
	// images.go).
	attached []llm.Image
}

// Watcher notices changes to the project that the agent did not make, so
// the model is told about them at its next turn instead of working from
// a stale picture (the system prompt's file tree stays fixed for the
// conversation, to keep provider prompt caches hitting).
type Watcher interface {
	// Changes returns a short note of what changed in the project since
	// the last call (or since the Watcher was made), leaving out the
	// project-relative paths in ours, which the agent itself wrote. It
	// returns "" when nothing else changed.
	Changes(ours []string) string
}

// Notices tells the loop of events the model should hear about at its
// next request: one line each, added to the newest user turn. The jobs
// of package tools/jobs are its source.
type Notices interface {
	// TakeNotices returns the lines not taken yet, once each, and the
	// project-relative paths those events changed (the agent's own
	// doing, so the Watcher does not report them as someone else's).
	TakeNotices() (lines, changed []string)
}

// takeNotices returns the pending notices as text to add to a user turn
// ("" when there are none), and counts their files as the agent's own.
func (a *Agent) takeNotices() string {
	if a.Notices == nil {
		return ""
	}
	lines, changed := a.Notices.TakeNotices()
	a.wrote = append(a.wrote, changed...)
	return strings.Join(lines, "\n")
}

// SetSession makes s the conversation's session from the next run on
// (the chat's /clear and /resume). The model of s has been given none of
// the Unshown tools' definitions in this process: the first call of one
// is answered with it again.
func (a *Agent) SetSession(s *Session) {
	a.Session = s
	a.described = nil
	a.hookNotes = nil // the hooks' context was for the other session
}

// approval is the Agent's Approval, or one that asks nobody.
func (a *Agent) approval() *Approval {
	if a.Approval == nil {
		a.Approval = NewApproval(PolicyAsk)
	}
	return a.Approval
}

// Outcome is the summary of one Run.
type Outcome struct {
	SessionID string `json:"session_id"`
	// Answer is the prose of the model's last reply: the answer when the
	// run ended without error.
	Answer     string       `json:"answer"`
	Calls      []CallResult `json:"calls"`
	Usage      llm.Usage    `json:"usage"`
	Iterations int          `json:"iterations"`
	// Stopped is true when the run ended at the iteration limit.
	Stopped bool `json:"stopped,omitempty"`
	// Truncated is true when the final answer was cut off by the output
	// limit (finish reason "length").
	Truncated bool `json:"truncated,omitempty"`
}

func (a *Agent) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

// Run sends prompt as the next user turn and loops (protocol.md §4) until
// the model answers without calling a tool, the iteration limit is
// reached (ErrMaxIterations), or something fails. Every step is reported
// to emit, which is never called by two goroutines at once; the last
// event is EventDone or EventError. The Outcome is filled in every case.
func (a *Agent) Run(ctx context.Context, prompt string, emit func(Event)) (*Outcome, error) {
	if emit == nil {
		emit = func(Event) {}
	}
	emit = a.withEndNotice(ctx, emit)
	out := &Outcome{SessionID: a.Session.ID, Calls: []CallResult{}}
	fail := func(err error) (*Outcome, error) {
		emit(Event{Type: EventError, Iteration: out.Iterations, Err: err})
		return out, err
	}
	if strings.TrimSpace(prompt) == "" {
		return fail(ErrEmptyPrompt)
	}
	maxIter := a.MaxIterations
	if maxIter <= 0 {
		maxIter = DefaultMaxIterations
	}
	a.repeats = newRepeats()
	// What a hook fired in this run does is one of its events.
	ctx = WithHookEvents(ctx, func(e Event) {
		e.Iteration = out.Iterations
		emit(e)
	})
	stops := 0 // the times Stop hooks kept the model going (hooks.go)

	if err := a.answerDangling(); err != nil {
		return fail(err)
	}
	if note := a.takeHookNotes(); note != "" {
		prompt = note + "\n\n" + prompt
	}
	if note := a.takeNotices(); note != "" {
		prompt = note + "\n\n" + prompt
	}
	if a.Watcher != nil {
		if note := a.Watcher.Changes(a.wrote); note != "" {
			prompt = note + "\n\n" + prompt
		}
		a.wrote = a.wrote[:0]
	}
	if err := a.Session.Append(a.withAttached(llm.Message{Role: llm.User, Text: prompt})); err != nil { // images: attachments (images.go)
		return fail(err)
	}
	for iter := 1; ; iter++ {
		out.Iterations = iter
		// No stop sequence: the Scanner ends the stream itself when the
		// model starts a <tool_response outside a value, where a stop
		// sequence would also cut a write whose content holds that text.
		req, used, err := a.prepare(ctx, llm.Request{
			System:    a.System,
			Messages:  a.Session.Messages(),
			MaxTokens: a.MaxTokens,
			Reasoning: a.Reasoning,
		}, iter, emit)
		out.Usage = addUsage(out.Usage, used)
		if err != nil {
			return fail(err)
		}
		r, err := a.ask(a.notifyRetries(ctx, iter, emit), req, iter, emit)
		if r != nil && a.Budget != nil {
			a.Budget.observe(r.usage.InputTokens)
		}
		if r != nil {
			out.Usage = addUsage(out.Usage, r.usage)
		}
		if err != nil {
			return fail(fmt.Errorf("model %s: %w", a.Model.Name(), err))
		}
		// A reply of only whitespace says nothing either.
		if strings.TrimSpace(r.text.String()) == "" && len(r.items) == 0 {
			return fail(emptyReply(r.finish))
		}
		if err := a.Session.Append(llm.Message{Role: llm.Assistant, Text: r.text.String()}); err != nil {
			return fail(err)
		}
		out.Answer = strings.TrimSpace(r.prose.String())
		if len(r.items) == 0 {
			if goOn := a.stopHooks(ctx, out.Answer, &stops); goOn != "" && iter < maxIter {
				if err := a.Session.Append(llm.Message{Role: llm.User, Text: goOn}); err != nil {
					return fail(err)
				}
				continue
			}
			out.Truncated = r.finish == "length"
			emit(Event{Type: EventDone, Iteration: iter, Usage: &out.Usage, Outcome: out})
			return out, nil
		}

		b := &batch{a: a, iter: iter, changeSet: fmt.Sprintf("%s.%d", a.Session.ID, a.Session.Replies())}
		results, err := b.run(ctx, r.items, emit)
		out.Usage = addUsage(out.Usage, b.nested.take())
		out.Calls = append(out.Calls, results...)
		for _, cr := range results {
			a.wrote = append(a.wrote, cr.Result.Changed...)
		}
		if err != nil {
			rest, cerr := a.closeReply(r.items, results, iter, emit)
			out.Calls = append(out.Calls, rest...)
			if cerr != nil {
				err = errors.Join(err, cerr)
			}
			return fail(err)
		}
		var turn strings.Builder
		if err := xmlcall.Render(&turn, a.Budget.fitResponses(responses(results))...); err != nil {
			return fail(fmt.Errorf("render tool responses: %w", err))
		}
		turn.WriteString(a.nestedInstructions(results))
		turn.WriteString(b.notes.String())
		if note := a.takeNotices(); note != "" {
			turn.WriteString("\n" + note + "\n")
		}
		if err := a.Session.Append(llm.Message{Role: llm.User, Text: turn.String(), Images: resultImages(results)}); err != nil { // images: tools' pictures (images.go)
			return fail(err)
		}
		if iter >= maxIter {
			out.Stopped = true
			out.Answer = ""
			emit(Event{Type: EventDone, Iteration: iter, Usage: &out.Usage, Outcome: out,
				Text: fmt.Sprintf("stopped after %d model call%s without a final answer; continue the session to let it go on, or raise the iteration limit", iter, map[bool]string{true: "s"}[iter != 1])})
			return out, fmt.Errorf("%w (%d)", ErrMaxIterations, iter)
		}
	}
}

func emptyReply(finish string) error {
	if finish == "" {
		return ErrEmptyReply
	}
	return fmt.Errorf("%w (finish reason %q)", ErrEmptyReply, finish)
}

// notifyRetries makes the provider layer's retries of a model call into
// EventRetry events, so that a long backoff is never silent.
func (a *Agent) notifyRetries(ctx context.Context, iter int, emit func(Event)) context.Context {
	return llm.WithRetryNotify(ctx, func(n llm.RetryNotice) {
		r := &Retry{Attempt: n.Attempt, Attempts: n.Attempts, Wait: n.Wait, Reason: "network"}
		if n.Err != nil {
			r.Provider = n.Err.Endpoint.Provider
			r.Message = n.Err.Error()
			r.Reason = retryReason(n.Err.Kind)
			if n.Err.Kind == llm.KindTimeout {
				r.Silence = n.Err.Waited
			}
		}
		emit(Event{Type: EventRetry, Iteration: iter, Retry: r})
	})
}

func retryReason(k llm.Kind) string {
	switch k {
	case llm.KindRateLimit:
		return "rate_limited"
	case llm.KindServer:
		return "server_error"
	case llm.KindTimeout:
		return "timeout"
	case llm.KindMalformed:
		return "malformed"
	}
	return "network"
}

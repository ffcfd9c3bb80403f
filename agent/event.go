package agent

import (
	"encoding/json"
	"time"

	"github.com/agentcli/agent/agent/hooks"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
)

// EventType names what an Event reports.
type EventType string

// The events of a run, in the order they can occur within one iteration:
// text and call events while the reply streams, usage when it ends, then
// one result per call. Retry comes before a reply is asked again, error
// and done end the run.
const (
	EventText      EventType = "text"       // a piece of prose, as it streams
	EventThought   EventType = "thought"    // a piece of the model's separate reasoning, as it streams
	EventCall      EventType = "call"       // a complete call recognised in the stream
	EventToolStart EventType = "tool_start" // a call was approved and starts running
	EventOutput    EventType = "output"     // a running call's output, as it comes (a command's)
	EventResult    EventType = "result"     // a call (or broken call) has its answer
	EventUsage     EventType = "usage"      // token counts of one model call
	EventRetry     EventType = "retry"      // a model call is tried again; Retry says why and when
	EventCompact   EventType = "compact"    // older turns were summarised to fit the window
	EventError     EventType = "error"      // the run failed
	EventDone      EventType = "done"       // the run ended with an answer or at the limit
	// EventNested is an event of a sub-agent (the task tool's) run by a
	// call: Call is that call, Nested the sub-agent's own event. Its
	// usage is already counted in the parent run's Outcome.
	EventNested EventType = "nested"
	// EventHook is what a hook did that a person should know (blocked
	// or allowed a call, changed its input, added context, failed): Hook
	// says it, Text in one line; Call is the call it was about, if any.
	EventHook EventType = "hook"
)

// The events that concern the person working with the model.
const (
	// EventTodo: the model's plan changed (todo_write); Todos is the
	// list as it now stands.
	EventTodo EventType = "todo"
	// EventNotification: a person is waited for (an approval, a
	// question) or the turn is over, so someone not looking may want to
	// know (the chat's bell). Notification says which. The turn's end
	// comes just before its done or error event.
	EventNotification EventType = "notification"
)

// Retry describes an EventRetry: a model call that failed and is tried
// again. Facts only; the interface words them.
type Retry struct {
	// Reason is why: "rate_limited", "server_error", "network",
	// "timeout", "malformed", or "stream_dropped" (the reply broke off before any
	// tool call and is asked again: discard its text so far).
	Reason string `json:"reason"`
	// Provider is the provider's name ("gemini").
	Provider string `json:"provider,omitempty"`
	// Attempt is the attempt that failed, from 1; Attempts the most
	// that will be made (0 when unknown).
	Attempt  int `json:"attempt"`
	Attempts int `json:"attempts,omitempty"`
	// Wait is how long the loop waits before the next attempt.
	Wait time.Duration `json:"-"`
	// Silence is, for a "timeout", how long the provider sent nothing
	// (model_timeout).
	Silence time.Duration `json:"-"`
	// Message is the failure in one line, as the provider layer
	// worded it.
	Message string `json:"message,omitempty"`
}

// MarshalJSON adds the wait (and a timeout's silence) in seconds.
func (r Retry) MarshalJSON() ([]byte, error) {
	type plain Retry
	return json.Marshal(struct {
		plain
		WaitS    float64 `json:"wait_s"`
		SilenceS float64 `json:"silence_s,omitempty"`
	}{plain(r), r.Wait.Seconds(), r.Silence.Seconds()})
}

// The kinds of a Notification.
const (
	NotifyApproval = "approval" // a call waits for a person's yes
	NotifyQuestion = "question" // the model asked the person (ask_user)
	NotifyDone     = "done"     // the turn is over: answered, stopped or failed
)

// Notification is what an EventNotification tells a person who may not
// be looking.
type Notification struct {
	// Kind is NotifyApproval, NotifyQuestion or NotifyDone.
	Kind string `json:"kind"`
	// Message says it in one line: "approve run_command?", the
	// question asked, "the turn is over". It may hold the model's
	// words: escape it before showing it.
	Message string `json:"message"`
}

// Event is one thing that happened during Run. Type says which of the
// other fields are set.
type Event struct {
	Type EventType
	// Iteration is the 1-based number of the model call the event
	// belongs to.
	Iteration int
	// Text is the prose of an EventText or EventThought, the summary of
	// an EventCompact, or a note of an EventDone.
	Text string
	// Call is the call of an EventCall or EventToolStart.
	Call *xmlcall.Call
	// Retry describes an EventRetry.
	Retry *Retry
	// Result is the outcome of an EventResult.
	Result *CallResult
	// Usage is the token count of an EventUsage (this model call) or of
	// an EventDone (the whole run).
	Usage *llm.Usage
	// Err is the failure of an EventError.
	Err error
	// Outcome is the summary of an EventDone.
	Outcome *Outcome
	// Rule labels the user's permission rule that allowed the call of
	// an EventToolStart without asking (`permissions.allow "docs/**"`).
	Rule string
	// Subject is what that rule judged: the call's project paths or
	// command line, as its tool's definition names them (see
	// tools.Definition.Subject).
	Subject string
	// Nested is the sub-agent's event of an EventNested.
	Nested *Event
	// Hook is what a hook did, for an EventHook.
	Hook *hooks.Report
	// Todos is the model's plan of an EventTodo, as it now stands.
	Todos []tools.Todo
	// Notification is what an EventNotification tells.
	Notification *Notification
}

// Outcome labels of a CallResult, for display and the audit log.
const (
	OutcomeOK      = "ok"
	OutcomeError   = "error"
	OutcomeSkipped = "skipped"
	// OutcomeInterrupted: the person stopped the call while it ran.
	OutcomeInterrupted = "interrupted"
	OutcomeDenied      = "denied"
	OutcomeRepeated    = "repeated"
	OutcomeBroken      = "broken" // CALL_INCOMPLETE or CALL_MALFORMED: never ran
)

// CallResult is the answer to one call of a reply.
type CallResult struct {
	ID     string
	Tool   string
	Params []xmlcall.Param
	Result tools.Result
	// Duration is how long the tool ran (zero when it did not run).
	Duration time.Duration
	// ByPolicy is true when a write was refused by the approval policy
	// (no one to ask, never, or a deny rule), not by a person.
	ByPolicy bool
	// Rule labels the user's permission rule that decided the call
	// (allowed it unasked or refused it); empty when none did.
	Rule string
	// DecidedBy names the approval rule that decided a call that writes
	// ("permissions.deny", "mode", "policy", "always", "person", ...: see
	// approvalRules); empty for a call that needed no approval.
	DecidedBy string
}

// Outcome returns the call's outcome label (OutcomeOK, OutcomeError, ...).
func (r CallResult) Outcome() string {
	switch r.Result.Code {
	case "":
		return OutcomeOK
	case tools.CodeSkipped:
		return OutcomeSkipped
	case tools.CodeInterrupted:
		return OutcomeInterrupted
	case tools.CodePolicyDenied:
		return OutcomeDenied
	case tools.CodeRepeated:
		return OutcomeRepeated
	case tools.CodeCallIncomplete, tools.CodeCallMalformed:
		return OutcomeBroken
	default:
		return OutcomeError
	}
}

// callJSON is the wire shape of a call in events and in `agent run`'s
// JSON output: parameters as an object, which is what scripts want to read.
type callJSON struct {
	ID     string            `json:"id"`
	Tool   string            `json:"tool"`
	Params map[string]string `json:"params,omitempty"`
}

// resultJSON is the wire shape of a CallResult.
type resultJSON struct {
	callJSON
	Outcome string   `json:"outcome"`
	Code    string   `json:"code,omitempty"`
	Message string   `json:"message,omitempty"`
	Changed []string `json:"changed,omitempty"`
	Alerts  []string `json:"alerts,omitempty"`
	// Diagnostics are the language servers' word on the changed files.
	Diagnostics *tools.Diagnostics `json:"diagnostics,omitempty"`
	DurationMS  float64            `json:"duration_ms"`
	Rule        string             `json:"rule,omitempty"`
}

func paramMap(ps []xmlcall.Param) map[string]string {
	if len(ps) == 0 {
		return nil
	}
	m := make(map[string]string, len(ps))
	for _, p := range ps {
		m[p.Name] = p.Value
	}
	return m
}

// MarshalJSON gives a CallResult the shape scripts read: id, tool, params,
// outcome, code, message, changed, alerts, diagnostics, duration_ms. The tool's content is left
// out: it went to the model, and file contents do not belong in a log line.
func (r CallResult) MarshalJSON() ([]byte, error) {
	return json.Marshal(resultJSON{
		callJSON:    callJSON{ID: r.ID, Tool: r.Tool, Params: paramMap(r.Params)},
		Outcome:     r.Outcome(),
		Code:        r.Result.Code,
		Message:     r.Result.Message,
		Changed:     r.Result.Changed,
		Alerts:      r.Result.Alerts,
		Diagnostics: r.Result.Diagnostics,
		DurationMS:  durationMS(r.Duration),
		Rule:        r.Rule,
	})
}

func durationMS(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}

// person is the wire shape of the events about the person: a todo
// event's items, a notification.
type person struct {
	Items        []tools.Todo  `json:"items,omitempty"`
	Notification *Notification `json:"notification,omitempty"`
}

// MarshalJSON encodes an event as one flat object whose "type" says what
// it is, the form `agent run --output-format stream-json` prints one per
// line.
func (e Event) MarshalJSON() ([]byte, error) {
	type wire struct {
		Type      EventType     `json:"type"`
		Iteration int           `json:"iteration,omitempty"`
		Text      string        `json:"text,omitempty"`
		Call      *callJSON     `json:"call,omitempty"`
		Result    *CallResult   `json:"result,omitempty"`
		Usage     *llm.Usage    `json:"usage,omitempty"`
		Retry     *Retry        `json:"retry,omitempty"`
		Error     string        `json:"error,omitempty"`
		Outcome   *Outcome      `json:"outcome,omitempty"`
		Rule      string        `json:"rule,omitempty"`
		Nested    *Event        `json:"nested,omitempty"`
		Hook      *hooks.Report `json:"hook,omitempty"`
		person
	}
	w := wire{Type: e.Type, Iteration: e.Iteration, Text: e.Text, Result: e.Result, Usage: e.Usage, Retry: e.Retry, Outcome: e.Outcome, Rule: e.Rule, Nested: e.Nested,
		Hook: e.Hook, person: person{Items: e.Todos, Notification: e.Notification}}
	if e.Call != nil {
		w.Call = &callJSON{ID: e.Call.ID, Tool: e.Call.Name, Params: paramMap(e.Call.Params)}
	}
	if e.Err != nil {
		w.Error = e.Err.Error()
	}
	return json.Marshal(w)
}

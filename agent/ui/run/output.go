package run

import (
	"encoding/json"
	"fmt"
	"github.com/agentcli/agent/internal/termtext"
	"io"
	"os"
	"strings"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm"
)

// The output formats of `agent run`.
const (
	FormatText       = "text"
	FormatJSON       = "json"
	FormatStreamJSON = "stream-json"
)

// Printer turns the loop's events into one output format. The loop
// prints nothing itself; this is the only place `agent run` output is
// decided.
type Printer interface {
	// Event prints one event of the run as it happens.
	Event(ev agent.Event)
	// Finish prints what comes after the run (the JSON object), given
	// the outcome and the run's error.
	Finish(out *agent.Outcome, err error) error
	// Summarize sets what the run changed, given before Finish.
	Summarize(s Summary)
}

// NewPrinter is the printer of one output format (FormatText, FormatJSON,
// FormatStreamJSON; text for anything else) writing to io.
func NewPrinter(format string, io Streams) Printer {
	switch format {
	case FormatJSON:
		return &jsonPrinter{w: io.Out}
	case FormatStreamJSON:
		return &streamPrinter{w: io.Out, enc: json.NewEncoder(io.Out)}
	default:
		live := io.StderrTTY && os.Getenv("TERM") != "dumb"
		return &textPrinter{out: io.Out, errOut: io.ErrOut, tty: io.StdoutTTY, liveOutput: live}
	}
}

// textPrinter streams the prose to stdout and the tool activity to
// stderr, so that `agent run "..." > answer.md` captures the answer alone.
//
// A reply whose stream drops before any tool call is asked again. On a
// terminal its prose is shown as it comes, and the restart is marked on
// stderr; elsewhere (a file, a pipe) each reply's prose is held until the
// reply is complete or has a call (it is then never asked again), so that
// stdout gets the answer once, without the first half of a dropped one.
type textPrinter struct {
	out, errOut io.Writer
	tty         bool
	// spin is the wait indicator on stderr, erased before anything is
	// printed; nil shows none.
	spin *spinner
	// midLine is true when the prose printed so far does not end a line.
	midLine bool
	// newlines counts the line breaks that end the prose printed so far
	// (up to 2), so replies can be set apart by one blank line.
	newlines int
	printed  bool
	// pending is whitespace held back: the line breaks around a call
	// would otherwise pile up as blank lines.
	pending   string
	iteration int
	summary   *Summary
	// held is prose not yet written (not on a terminal), and before the
	// state of the printer when holding began, to go back to if the
	// reply is asked again.
	held   strings.Builder
	before textState
	// liveOutput says a command's output is shown as a live preview
	// (stderr is a terminal); output is the view of the running
	// command's output, nil between commands (run_preview.go).
	liveOutput bool
	output     *outputView
	outputID   string
}

// textState is what text() tracks of the prose printed so far.
type textState struct {
	midLine   bool
	newlines  int
	printed   bool
	iteration int
}

func (p *textPrinter) state() textState {
	return textState{midLine: p.midLine, newlines: p.newlines, printed: p.printed, iteration: p.iteration}
}

func (p *textPrinter) setState(s textState) {
	p.midLine, p.newlines, p.printed, p.iteration = s.midLine, s.newlines, s.printed, s.iteration
}

// flush writes the prose held back.
func (p *textPrinter) flush() {
	if p.held.Len() > 0 {
		io.WriteString(p.out, p.held.String())
		p.held.Reset()
	}
}

func (p *textPrinter) Event(ev agent.Event) {
	if p.spin != nil && ev.Type != agent.EventThought && ev.Type != agent.EventUsage {
		// Nothing is drawn over a line being printed.
		p.spin.hold()
		defer func() { p.spin.release(!(p.tty && p.midLine)) }()
	}
	switch ev.Type {
	case agent.EventText, agent.EventThought, agent.EventUsage, agent.EventRetry, agent.EventCompact:
	default:
		// A call, a result, the end: the reply so far is final.
		p.flush()
	}
	if p.output != nil && (ev.Type != agent.EventOutput || ev.Call != nil && ev.Call.ID != p.outputID) {
		p.output.end()
		p.output = nil
	}
	switch ev.Type {
	case agent.EventText:
		p.text(ev)
	case agent.EventCall:
		p.breakLine()
		fmt.Fprintf(p.errOut, "→ %s\n", termtext.Escape(callSummary(ev.Call)))
	case agent.EventToolStart:
		if ev.Rule != "" {
			p.breakLine()
			fmt.Fprintf(p.errOut, "  %s\n", termtext.Escape(ruleActivity(ev)))
		}
	case agent.EventResult:
		p.breakLine()
		r := ev.Result
		if r.Result.IsError() {
			fmt.Fprintf(p.errOut, "  ✗ %s %s: %s\n", termtext.Escape(r.Tool), termtext.Escape(r.Result.Code), termtext.Escape(r.Result.Message))
		} else {
			msg := r.Result.Message
			if msg == "" {
				msg = "done"
			}
			if d := r.Result.Diagnostics.Summary(); d != "" {
				msg += " · " + d
			}
			fmt.Fprintf(p.errOut, "  ✓ %s: %s\n", termtext.Escape(r.Tool), termtext.Escape(msg))
		}
		for _, a := range r.Result.Alerts {
			fmt.Fprintf(p.errOut, "  ! %s\n", termtext.Escape(a))
		}
	case agent.EventHook:
		// What a hook did: blocked, allowed or changed a call, failed.
		p.breakLine()
		fmt.Fprintf(p.errOut, "  %s\n", termtext.Escape(ev.Text))
	case agent.EventOutput:
		// A running command's output, as it comes, shown (never
		// obeyed) on stderr with the tool activity, bounded.
		p.breakLine()
		if p.output == nil {
			p.output = &outputView{w: p.errOut, live: p.liveOutput, width: stderrWidth()}
			if ev.Call != nil {
				p.outputID = ev.Call.ID
			}
		}
		p.output.add(ev.Text)
	case agent.EventRetry:
		p.breakLine()
		dropped := ev.Retry != nil && ev.Retry.Reason == "stream_dropped"
		switch {
		case dropped && p.tty:
			// What was shown stays on the screen: say it is void.
			fmt.Fprintf(p.errOut, "agent: %s; the reply starts again below\n", termtext.Escape(retryText(ev.Retry)))
			p.iteration = -1
		case dropped:
			// Nothing of it was written: forget it.
			p.held.Reset()
			p.setState(p.before)
			fallthrough
		default:
			fmt.Fprintf(p.errOut, "agent: %s\n", termtext.Escape(retryText(ev.Retry)))
		}
		if dropped {
			p.pending = ""
		}
	case agent.EventTodo:
		p.breakLine()
		printTodos(p.errOut, ev.Todos)
	case agent.EventDone:
		p.pending = ""
		if p.midLine {
			fmt.Fprintln(p.out)
			p.midLine = false
		}
		if ev.Outcome != nil && ev.Outcome.Stopped {
			fmt.Fprintf(p.errOut, "agent: %s\n", termtext.Escape(ev.Text))
		}
		if ev.Outcome != nil && ev.Outcome.Truncated {
			fmt.Fprintf(p.errOut, "agent: %s\n", truncatedNote)
		}
	}
}

// text prints prose. Whitespace is held back until more prose follows, and
// each reply after the first starts after one blank line.
func (p *textPrinter) text(ev agent.Event) {
	if strings.TrimSpace(ev.Text) == "" {
		p.pending += ev.Text
		return
	}
	if !p.tty && p.held.Len() == 0 {
		p.before = p.state()
	}
	t := p.pending + ev.Text
	p.pending = ""
	if ev.Iteration != p.iteration {
		p.iteration = ev.Iteration
		t = strings.TrimLeft(t, " \t\r\n")
		if p.printed {
			t = strings.Repeat("\n", max(0, 2-p.newlines)) + t
		}
	}
	if p.tty {
		// On a terminal the prose is shown, not captured: it must not
		// be able to rewrite what is on the screen.
		fmt.Fprint(p.out, termtext.Escape(t))
	} else {
		p.held.WriteString(t)
	}
	p.printed = true
	trimmed := strings.TrimRight(t, "\n")
	p.newlines = min(2, len(t)-len(trimmed))
	p.midLine = p.newlines == 0
}

// breakLine ends a line of prose on a terminal before tool activity is
// shown, since both streams share the screen there.
func (p *textPrinter) breakLine() {
	if p.midLine && p.tty {
		fmt.Fprintln(p.out)
		p.midLine = false
		p.newlines = 1
	}
}

func (p *textPrinter) Summarize(s Summary) { p.summary = &s }

func (p *textPrinter) Finish(*agent.Outcome, error) error {
	p.flush()
	if p.output != nil {
		p.output.end()
		p.output = nil
	}
	if p.spin != nil {
		p.spin.stop()
	}
	if p.summary != nil {
		p.summary.print(p.errOut)
	}
	return nil
}

// runResult is what a script needs to know about a run: the object of
// --output-format json, and the outcome of stream-json's done event, so
// both carry the same fields. "error" and "stopped" are always present.
type runResult struct {
	SessionID  string             `json:"session_id"`
	Answer     string             `json:"answer"`
	Calls      []agent.CallResult `json:"calls"`
	Usage      llm.Usage          `json:"usage"`
	Iterations int                `json:"iterations"`
	Stopped    bool               `json:"stopped"`
	// Truncated is true when the answer was cut off by the output limit.
	Truncated bool   `json:"truncated"`
	Error     string `json:"error"`
	// Retries counts the model calls tried again (rate limits, server
	// errors, a stream that dropped): the model was called more often
	// than iterations says.
	Retries int `json:"retries"`
	// Notes are what the run said along the way (each retry, what each
	// hook did, worded).
	Notes []string `json:"notes"`
	// AnswerAttempt says which attempt of the last model call the answer
	// is the text of: 1, or 2 when its stream dropped and it was asked
	// again (stream-json marks that attempt's text events "attempt": 2;
	// the earlier text of that call is void).
	AnswerAttempt int `json:"answer_attempt"`
	// Summary is what the run created, changed and deleted, its change
	// sets and how to undo them; absent when the run never started.
	Summary *Summary `json:"summary,omitempty"`
}

// truncatedNote tells that the answer is not whole.
const truncatedNote = "the answer was cut off by the model's output limit; it may be incomplete"

// runNotes collects what the JSON outputs report besides the outcome.
type runNotes struct {
	retries int
	notes   []string
	summary *Summary
	// attempts counts the attempts of each model call (by iteration)
	// whose stream dropped and that was asked again.
	attempts map[int]int
}

// attempt is the attempt of model call iter being streamed (from 1).
func (n *runNotes) attempt(iter int) int { return 1 + n.attempts[iter] }

func (n *runNotes) Summarize(s Summary) { n.summary = &s }

func (n *runNotes) Event(ev agent.Event) {
	if ev.Type == agent.EventHook {
		n.notes = append(n.notes, ev.Text)
	}
	if ev.Type == agent.EventRetry {
		n.retries++
		n.notes = append(n.notes, retryText(ev.Retry))
		if ev.Retry != nil && ev.Retry.Reason == "stream_dropped" {
			if n.attempts == nil {
				n.attempts = map[int]int{}
			}
			n.attempts[ev.Iteration]++
		}
	}
}

func (n *runNotes) result(out *agent.Outcome, err error) runResult {
	r := runResult{Calls: []agent.CallResult{}, Retries: n.retries, Notes: n.notes, Summary: n.summary, AnswerAttempt: 1}
	if r.Notes == nil {
		r.Notes = []string{}
	}
	if out != nil {
		r.SessionID, r.Answer, r.Usage, r.Iterations, r.Stopped, r.Truncated = out.SessionID, out.Answer, out.Usage, out.Iterations, out.Stopped, out.Truncated
		r.AnswerAttempt = n.attempt(out.Iterations)
		if out.Truncated {
			r.Notes = append(r.Notes, truncatedNote)
		}
		if out.Calls != nil {
			r.Calls = out.Calls
		}
	}
	if err != nil {
		r.Error = err.Error()
	}
	return r
}

// jsonPrinter prints one object at the end: what a script needs to know.
type jsonPrinter struct {
	w io.Writer
	runNotes
}

func (p *jsonPrinter) Finish(out *agent.Outcome, err error) error {
	enc := json.NewEncoder(p.w)
	enc.SetIndent("", "  ")
	return enc.Encode(p.result(out, err))
}

// streamPrinter prints each event as one JSON line as it happens. The
// done event is held until the run's end, so that it always comes last —
// after an error event too — and carries the run's error.
type streamPrinter struct {
	w   io.Writer
	enc *json.Encoder
	runNotes
	done *agent.Event
}

func (p *streamPrinter) Event(ev agent.Event) {
	p.runNotes.Event(ev)
	if ev.Type == agent.EventNotification {
		return // for a person who is not looking; the stream has its events
	}
	if ev.Type == agent.EventDone {
		p.done = &ev
		return
	}
	if n := p.attempt(ev.Iteration); n > 1 && (ev.Type == agent.EventText || ev.Type == agent.EventThought) {
		// The text of a model call asked again after a drop says so;
		// the earlier attempt's text is void.
		if b, err := json.Marshal(ev); err == nil && len(b) > 1 {
			fmt.Fprintf(p.w, "%s,\"attempt\":%d}\n", b[:len(b)-1], n)
			return
		}
	}
	_ = p.enc.Encode(ev)
}

func (p *streamPrinter) Finish(out *agent.Outcome, err error) error {
	done := struct {
		Type      agent.EventType `json:"type"`
		Iteration int             `json:"iteration,omitempty"`
		Text      string          `json:"text,omitempty"`
		Usage     *llm.Usage      `json:"usage,omitempty"`
		Outcome   runResult       `json:"outcome"`
	}{Type: agent.EventDone, Outcome: p.result(out, err)}
	if p.done != nil {
		done.Iteration, done.Text, done.Usage = p.done.Iteration, p.done.Text, p.done.Usage
	} else if out != nil {
		done.Iteration = out.Iterations
	}
	return p.enc.Encode(done)
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
)

// The output formats of `agent run`.
const (
	formatText       = "text"
	formatJSON       = "json"
	formatStreamJSON = "stream-json"
)

// runPrinter turns the loop's events into one output format. The loop
// prints nothing itself; this is the only place `agent run` output is
// decided.
type runPrinter interface {
	event(ev agent.Event)
	// finish prints what comes after the run (the JSON object), given
	// the outcome and the run's error.
	finish(out *agent.Outcome, err error) error
	// summarize sets what the run changed, given before finish.
	summarize(s runSummary)
}

func newRunPrinter(format string, io *streams) runPrinter {
	switch format {
	case formatJSON:
		return &jsonPrinter{w: io.Out}
	case formatStreamJSON:
		return &streamPrinter{enc: json.NewEncoder(io.Out)}
	default:
		return &textPrinter{out: io.Out, errOut: io.ErrOut, tty: io.stdoutTTY}
	}
}

// textPrinter streams the prose to stdout and the tool activity to
// stderr, so that `agent run "..." > answer.md` captures the answer alone.
type textPrinter struct {
	out, errOut io.Writer
	tty         bool
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
	summary   *runSummary
}

func (p *textPrinter) event(ev agent.Event) {
	switch ev.Type {
	case agent.EventText:
		p.text(ev)
	case agent.EventCall:
		p.breakLine()
		fmt.Fprintf(p.errOut, "→ %s\n", safeText(callSummary(ev.Call)))
	case agent.EventToolStart:
		if ev.Rule != "" {
			p.breakLine()
			fmt.Fprintf(p.errOut, "  %s\n", safeText(ruleActivity(ev.Call, ev.Rule)))
		}
	case agent.EventResult:
		p.breakLine()
		r := ev.Result
		if r.Result.IsError() {
			fmt.Fprintf(p.errOut, "  ✗ %s %s: %s\n", safeText(r.Tool), safeText(r.Result.Code), safeText(r.Result.Message))
		} else {
			msg := r.Result.Message
			if msg == "" {
				msg = "done"
			}
			fmt.Fprintf(p.errOut, "  ✓ %s: %s\n", safeText(r.Tool), safeText(msg))
		}
	case agent.EventOutput:
		// A running command's output, as it comes, shown (never
		// obeyed) on stderr with the tool activity.
		p.breakLine()
		fmt.Fprint(p.errOut, safeText(ev.Text))
	case agent.EventRetry:
		p.breakLine()
		fmt.Fprintf(p.errOut, "agent: %s\n", safeText(retryText(ev.Retry)))
		if ev.Retry != nil && ev.Retry.Reason == "stream_dropped" {
			// The reply starts again: set it apart like a new one.
			p.iteration = -1
			p.pending = ""
		}
	case agent.EventDone:
		p.pending = ""
		if p.midLine {
			fmt.Fprintln(p.out)
			p.midLine = false
		}
		if ev.Outcome != nil && ev.Outcome.Stopped {
			fmt.Fprintf(p.errOut, "agent: %s\n", safeText(ev.Text))
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
		fmt.Fprint(p.out, safeText(t))
	} else {
		fmt.Fprint(p.out, t)
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

func (p *textPrinter) summarize(s runSummary) { p.summary = &s }

func (p *textPrinter) finish(*agent.Outcome, error) error {
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
	// Notes are what the run said along the way (each retry, worded).
	Notes []string `json:"notes"`
	// Summary is what the run created, changed and deleted, its change
	// sets and how to undo them; absent when the run never started.
	Summary *runSummary `json:"summary,omitempty"`
}

// truncatedNote tells that the answer is not whole.
const truncatedNote = "the answer was cut off by the model's output limit; it may be incomplete"

// runNotes collects what the JSON outputs report besides the outcome.
type runNotes struct {
	retries int
	notes   []string
	summary *runSummary
}

func (n *runNotes) summarize(s runSummary) { n.summary = &s }

func (n *runNotes) event(ev agent.Event) {
	if ev.Type == agent.EventRetry {
		n.retries++
		n.notes = append(n.notes, retryText(ev.Retry))
	}
}

func (n *runNotes) result(out *agent.Outcome, err error) runResult {
	r := runResult{Calls: []agent.CallResult{}, Retries: n.retries, Notes: n.notes, Summary: n.summary}
	if r.Notes == nil {
		r.Notes = []string{}
	}
	if out != nil {
		r.SessionID, r.Answer, r.Usage, r.Iterations, r.Stopped, r.Truncated = out.SessionID, out.Answer, out.Usage, out.Iterations, out.Stopped, out.Truncated
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

func (p *jsonPrinter) finish(out *agent.Outcome, err error) error {
	enc := json.NewEncoder(p.w)
	enc.SetIndent("", "  ")
	return enc.Encode(p.result(out, err))
}

// streamPrinter prints each event as one JSON line as it happens. The
// done event is held until the run's end, so that it always comes last —
// after an error event too — and carries the run's error.
type streamPrinter struct {
	enc *json.Encoder
	runNotes
	done *agent.Event
}

func (p *streamPrinter) event(ev agent.Event) {
	p.runNotes.event(ev)
	if ev.Type == agent.EventDone {
		p.done = &ev
		return
	}
	_ = p.enc.Encode(ev)
}

func (p *streamPrinter) finish(out *agent.Outcome, err error) error {
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

// callSummary is one line naming a call and its parameters: short values
// as they are, long or multi-line ones (file content) by their size.
func callSummary(c *xmlcall.Call) string {
	var b strings.Builder
	b.WriteString(c.Name)
	for _, p := range c.Params {
		v := strings.TrimSpace(p.Value)
		if len(v) > 60 || strings.Contains(v, "\n") {
			v = fmt.Sprintf("(%d bytes)", len(p.Value))
		}
		fmt.Fprintf(&b, " %s=%s", p.Name, v)
	}
	return b.String()
}

// retryText words a retry for the user: "rate limited by gemini, retrying
// in 12 s (2/3)".
func retryText(r *agent.Retry) string {
	if r == nil {
		return "retrying"
	}
	who := r.Provider
	if who == "" {
		who = "the provider"
	}
	var what string
	switch r.Reason {
	case "stream_dropped":
		return "the reply stream from " + who + " dropped before any tool call; asking again"
	case "rate_limited":
		what = "rate limited by " + who
	case "server_error":
		what = who + " had a server error"
	case "timeout":
		what = who + " sent nothing for too long"
	case "malformed":
		what = who + " sent a malformed reply"
	default:
		what = "could not reach " + who
	}
	s := fmt.Sprintf("%s, retrying in %s", what, waitText(r.Wait))
	if r.Attempts > 0 {
		s += fmt.Sprintf(" (%d/%d)", r.Attempt+1, r.Attempts)
	}
	return s
}

// waitText says a wait the way people read it: "800 ms", "12 s", "2 min".
func waitText(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Round(time.Second).Seconds()))
	}
	return fmt.Sprintf("%.0f min", d.Minutes())
}

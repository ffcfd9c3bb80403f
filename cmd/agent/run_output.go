package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

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
}

func (p *textPrinter) event(ev agent.Event) {
	switch ev.Type {
	case agent.EventText:
		p.text(ev)
	case agent.EventCall:
		p.breakLine()
		fmt.Fprintf(p.errOut, "→ %s\n", safeText(callSummary(ev.Call)))
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
	case agent.EventRetry:
		p.breakLine()
		fmt.Fprintf(p.errOut, "agent: %s\n", safeText(ev.Text))
		// The reply starts again: set it apart like a new one.
		p.iteration = -1
		p.pending = ""
	case agent.EventDone:
		p.pending = ""
		if p.midLine {
			fmt.Fprintln(p.out)
			p.midLine = false
		}
		if ev.Outcome != nil && ev.Outcome.Stopped {
			fmt.Fprintf(p.errOut, "agent: %s\n", safeText(ev.Text))
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

func (p *textPrinter) finish(*agent.Outcome, error) error { return nil }

// jsonPrinter prints one object at the end: what a script needs to know.
type jsonPrinter struct{ w io.Writer }

func (p *jsonPrinter) event(agent.Event) {}

func (p *jsonPrinter) finish(out *agent.Outcome, err error) error {
	type result struct {
		SessionID  string             `json:"session_id"`
		Answer     string             `json:"answer"`
		Calls      []agent.CallResult `json:"calls"`
		Usage      llm.Usage          `json:"usage"`
		Iterations int                `json:"iterations"`
		Stopped    bool               `json:"stopped"`
		Error      string             `json:"error,omitempty"`
	}
	r := result{Calls: []agent.CallResult{}}
	if out != nil {
		r.SessionID, r.Answer, r.Usage, r.Iterations, r.Stopped = out.SessionID, out.Answer, out.Usage, out.Iterations, out.Stopped
		if out.Calls != nil {
			r.Calls = out.Calls
		}
	}
	if err != nil {
		r.Error = err.Error()
	}
	enc := json.NewEncoder(p.w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// streamPrinter prints each event as one JSON line as it happens.
type streamPrinter struct{ enc *json.Encoder }

func (p *streamPrinter) event(ev agent.Event) { _ = p.enc.Encode(ev) }

func (p *streamPrinter) finish(*agent.Outcome, error) error { return nil }

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

package run

import (
	"context"
	"errors"
	"fmt"
	stdio "io"
	"os"
	"strings"
	"time"

	"github.com/agentcli/agent/internal/termtext"

	"github.com/agentcli/agent/agent"
)

// previewLines bounds the diff shown before a question; the rest is
// counted, and "d" at the prompt shows all of it.
const previewLines = 40

// pollInterval is how often a question waiting on a terminal looks at the
// context, so that cancelling it never leaves a reader behind.
const pollInterval = 100 * time.Millisecond

// TerminalAsker asks on a terminal before each action that needs
// approval: the preview and the question are written to out, and the
// answer read from in, which is the same terminal, so a question never
// lands in a redirected log while the run seems to hang.
type TerminalAsker struct {
	in    stdio.Reader
	out   stdio.Writer
	color bool
	// pending holds bytes typed after the end of the last answer.
	pending []byte
}

// Ask implements agent.Asker: y allows, a allows always (this tool, or
// the narrower scope the preview names, for the rest of the
// conversation), n denies, and "n: reason" denies with a reason the
// model gets. Anything else is asked again.
func (t *TerminalAsker) Ask(ctx context.Context, q agent.Question) (agent.Answer, error) {
	t.show(q, previewLines)
	always := "all of " + q.Tool.Name
	if q.Preview.ScopeLabel != "" {
		always = q.Preview.ScopeLabel
	}
	for {
		fmt.Fprintf(t.out, "\nallow %s? [y/N/a] (a = always: %s; n: reason to say why; d = whole diff) ",
			termtext.Escape(termtext.ShowBlanks(callSummary(&q.Call))), termtext.Escape(termtext.ShowBlanks(always)))
		line, err := t.ReadLine(ctx)
		if err != nil && line == "" {
			fmt.Fprintln(t.out)
			if errors.Is(err, stdio.EOF) {
				// End of input: nobody is there to say yes.
				return agent.Answer{Decision: agent.Deny}, nil
			}
			return agent.Answer{}, err
		}
		word, reason, _ := strings.Cut(strings.TrimSpace(line), ":")
		switch strings.ToLower(strings.TrimSpace(word)) {
		case "y", "yes":
			return agent.Answer{Decision: agent.Allow}, nil
		case "a", "always", "all":
			return agent.Answer{Decision: agent.AllowAlways}, nil
		case "n", "no", "":
			return agent.Answer{Decision: agent.Deny, Reason: strings.TrimSpace(reason)}, nil
		case "d", "diff":
			t.show(q, 0)
			continue
		}
		fmt.Fprintf(t.out, "please answer y, n (or n: reason), a or d")
	}
}

// show writes the preview, its diff cut to max lines (0: all of it). The
// facts (the command, the arguments) are written whole, their long runs
// of blanks counted (termtext.ShowBlanks), and the terminal wraps them.
func (t *TerminalAsker) show(q agent.Question, max int) {
	p := q.Preview
	fmt.Fprintf(t.out, "\n%s\n", t.paint("1", termtext.Escape(termtext.ShowBlanks(p.Summary))))
	for _, l := range p.Lines {
		fmt.Fprintf(t.out, "  %s\n", strings.ReplaceAll(termtext.Escape(termtext.ShowBlanks(l)), "\n", "\n    "))
	}
	if p.Diff != "" {
		fmt.Fprint(t.out, t.diff(termtext.Escape(p.Diff), max))
	}
}

// diff colours a unified diff on a terminal and cuts it to max lines.
func (t *TerminalAsker) diff(d string, max int) string {
	lines := strings.SplitAfter(d, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	cut := 0
	if max > 0 && len(lines) > max {
		cut = len(lines) - max
		lines = lines[:max]
	}
	var b strings.Builder
	for _, l := range lines {
		body := strings.TrimRight(l, "\n")
		switch {
		case strings.HasPrefix(body, "+++"), strings.HasPrefix(body, "---"):
			b.WriteString(t.paint("1", body))
		case strings.HasPrefix(body, "+"):
			b.WriteString(t.paint("32", body))
		case strings.HasPrefix(body, "-"):
			b.WriteString(t.paint("31", body))
		case strings.HasPrefix(body, "@@"):
			b.WriteString(t.paint("36", body))
		default:
			b.WriteString(body)
		}
		b.WriteByte('\n')
	}
	if cut > 0 {
		fmt.Fprintf(&b, "… %d more lines (answer d to see them all)\n", cut)
	}
	return b.String()
}

func (t *TerminalAsker) paint(code, s string) string {
	if !t.color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// ReadLine reads one line of the answer. On a terminal or pipe that has
// read deadlines it polls, so a cancelled context ends the question at
// once and leaves no goroutine blocked on the read.
func (t *TerminalAsker) ReadLine(ctx context.Context) (string, error) {
	f, deadlines := t.in.(interface{ SetReadDeadline(time.Time) error })
	if deadlines && f.SetReadDeadline(time.Time{}) != nil {
		deadlines = false // a file without deadlines (a regular file)
	}
	if deadlines {
		defer f.SetReadDeadline(time.Time{})
	}
	buf := make([]byte, 256)
	for {
		if i := strings.IndexByte(string(t.pending), '\n'); i >= 0 {
			line := string(t.pending[:i])
			t.pending = t.pending[i+1:]
			return line, nil
		}
		if err := ctx.Err(); err != nil {
			return "", err
		}
		if deadlines {
			f.SetReadDeadline(time.Now().Add(pollInterval))
		}
		n, err := t.in.Read(buf)
		t.pending = append(t.pending, buf[:n]...)
		switch {
		case err == nil:
		case deadlines && errors.Is(err, os.ErrDeadlineExceeded):
		default:
			line := string(t.pending)
			t.pending = nil
			return line, err
		}
	}
}

// ApprovalTerminal is where approval questions are asked: the
// controlling terminal, opened for reading and writing, so that the
// question is seen and answered there even when the prompt comes through
// a pipe or stderr goes to a log; failing that, standard input and
// stderr when both are terminals. Nil means nobody can answer (CI), and
// writes are denied with advice to use --yes. The closer releases what
// was opened.
func ApprovalTerminal(s Streams) (stdio.Reader, stdio.Writer, func()) {
	if s.OpenTTY != nil {
		if tty, err := s.OpenTTY(); err == nil {
			return tty, tty, func() { tty.Close() }
		}
	}
	if s.StdinTTY && s.StderrTTY {
		return s.In, s.ErrOut, func() {}
	}
	return nil, nil, func() {}
}

// CanApprove reports whether a write could be approved under policy with
// the streams s: the policy allows it, or it asks and a person can answer
// on the terminal (ApprovalTerminal).
func CanApprove(policy agent.Policy, s Streams) bool {
	switch policy {
	case agent.PolicyAuto:
		return true
	case agent.PolicyAsk:
		tin, _, closeTTY := ApprovalTerminal(s)
		closeTTY()
		return tin != nil
	}
	return false
}

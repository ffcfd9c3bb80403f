package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentcli/agent/agent"
)

// Asker answers the loop's approval questions by asking in the chat. It is
// safe to call from the loop's goroutine: the question goes to the
// program as a message and Ask waits for the user's answer, or for ctx to
// end (the user stopped the run).
type Asker struct {
	inbox chan<- tea.Msg
	quit  <-chan struct{}
}

// Ask shows req in the chat and returns the user's verdict.
func (a Asker) Ask(ctx context.Context, req Request) (Verdict, error) {
	reply := make(chan Verdict, 1)
	select {
	case a.inbox <- askMsg{req: req, reply: reply}:
	case <-ctx.Done():
		return Verdict{}, ctx.Err()
	case <-a.quit:
		return Verdict{}, context.Canceled
	}
	select {
	case v := <-reply:
		return v, nil
	case <-ctx.Done():
		return Verdict{}, ctx.Err()
	case <-a.quit:
		return Verdict{}, context.Canceled
	}
}

// question is the pending approval in the chat.
type question struct {
	askMsg
	typing bool   // the user chose "no" and is typing a reason
	reason string // the reason typed so far
}

// answer sends the verdict; the reply channel has room for it.
func (q *question) answer(d agent.Decision, reason string) {
	q.reply <- Verdict{Decision: d, Reason: strings.TrimSpace(reason)}
}

// maxDiffLines bounds the diff shown in the dialog on a short terminal;
// the rest is summarised.
func maxDiffLines(height int) int {
	if height <= 0 {
		return 30
	}
	return max(height-10, 6)
}

// view renders the dialog: what the call does, the coloured diff or the
// new lines, and the keys.
func (q *question) view(st *styles, width, height int) string {
	w := max(width-4, 20)
	var b strings.Builder
	b.WriteString(st.warn.Render("Allow ") + st.tool.Render(visible(q.req.Tool)) + st.warn.Render("?") + " " + visible(q.req.Summary) + "\n")
	for _, l := range q.req.Lines {
		b.WriteString(st.dim.Render(ansi.Truncate(visible(l), w, "…")) + "\n")
	}
	if q.req.Diff != "" {
		lines := strings.Split(strings.TrimRight(visible(q.req.Diff), "\n"), "\n")
		most := maxDiffLines(height)
		for i, l := range lines {
			if i == most {
				b.WriteString(st.dim.Render(fmt.Sprintf("… %d more lines", len(lines)-most)) + "\n")
				break
			}
			b.WriteString(st.diffLine(ansi.Truncate(l, w, "…")) + "\n")
		}
	}
	if q.typing {
		b.WriteString("Why not? (told to the model; Enter sends) " + visible(q.reason) + "▏")
	} else {
		scope := q.req.ScopeLabel
		if scope == "" {
			scope = q.req.Tool
		}
		b.WriteString(st.key.Render("y") + " yes  " + st.key.Render("n") + " no  " + st.key.Render("r") + " no, with a reason  " +
			st.key.Render("a") + " always (" + visible(scope) + ")  " + st.dim.Render("esc stops"))
	}
	return st.dialog.Width(min(width, 200)).Render(b.String())
}

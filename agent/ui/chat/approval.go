package chat

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/internal/termtext"
)

// Asker is the loop's agent.Asker in the chat: it asks in the chat's
// dialog. It is safe to call from the loop's goroutine: the question goes
// to the program as a message and Ask waits for the user's answer, or for
// ctx to end (the user stopped the run).
type Asker struct {
	inbox chan<- tea.Msg
	quit  <-chan struct{}
}

// Ask shows q in the chat and returns the user's answer.
func (a Asker) Ask(ctx context.Context, q agent.Question) (agent.Answer, error) {
	reply := make(chan agent.Answer, 1)
	return waitInChat(ctx, a.inbox, a.quit, askMsg{q: q, reply: reply}, reply) // userq.go
}

// question is the pending approval in the chat.
type question struct {
	askMsg
	typing bool   // the user chose "no" and is typing a reason
	reason string // the reason typed so far
	// top is the first row of the body shown: a body taller than the
	// window scrolls, so that all of it can be read before answering.
	top int
	// body is the body laid out for bodyWidth (facts and diff, wrapped).
	body      []string
	bodyWidth int
}

// answer sends the answer; the reply channel has room for it.
func (q *question) answer(d agent.Decision, reason string) {
	q.reply <- agent.Answer{Decision: d, Reason: strings.TrimSpace(reason)}
}

// dialogBorder is the dialog's rows around its text.
const dialogBorder = 2

// layout is the dialog laid out for a width and the rows it may take.
type layout struct {
	title, keys []string
	body        []string
	room        int // body rows that fit
	width       int // of the text
}

// innerWidth is the text width inside the dialog's border and padding.
func innerWidth(width int) int { return max(min(width, 200)-4, 20) }

// layout wraps every part to the dialog's width, never cutting: the title,
// each fact (runs of blanks shown as ␠×N, see termtext.ShowBlanks), the
// diff, and the keys. rows is how many rows the dialog may take.
func (q *question) layout(st *styles, width, rows int) layout {
	w := innerWidth(width)
	var l layout
	p := q.q.Preview
	title := st.warn.Render("Allow ") + st.tool.Render(termtext.Drawn(q.q.Tool.Name)) + st.warn.Render("?") + " " + termtext.Drawn(termtext.ShowBlanks(p.Summary))
	l.title = strings.Split(ansi.Wrap(title, w, ""), "\n")
	if q.typing {
		l.keys = strings.Split(ansi.Hardwrap("Why not? (told to the model; Enter sends) "+termtext.Drawn(q.reason)+"▏", w, true), "\n")
	} else {
		scope := p.ScopeLabel
		if scope == "" {
			scope = q.q.Tool.Name
		}
		keys := st.key.Render("y") + " yes  " + st.key.Render("n") + " no  " + st.key.Render("r") + " no, with a reason  " +
			st.key.Render("a") + " always (" + termtext.Drawn(termtext.ShowBlanks(scope)) + ")  " + st.dim.Render("esc stops")
		l.keys = strings.Split(ansi.Wrap(keys, w, ""), "\n")
	}
	if q.bodyWidth != w || q.body == nil {
		q.body, q.bodyWidth = q.wrapBody(st, w), w
	}
	l.body, l.width = q.body, w
	l.room = max(rows-len(l.title)-len(l.keys)-dialogBorder, 3)
	if len(l.body) > l.room {
		// Room for the note that says what is out of sight.
		l.room = max(l.room-len(l.note(0)), 3)
	}
	return l
}

// wrapBody lays out the facts and the diff at width w, each source line
// wrapped into as many rows as it needs.
func (q *question) wrapBody(st *styles, w int) []string {
	body := []string{}
	for _, l := range q.q.Preview.Lines {
		for _, row := range wrapRows(termtext.Drawn(termtext.ShowBlanks(l)), w) {
			body = append(body, st.dim.Render(row))
		}
	}
	if d := q.q.Preview.Diff; d != "" {
		for _, l := range strings.Split(strings.TrimRight(termtext.Drawn(d), "\n"), "\n") {
			for _, row := range wrapRows(l, w) {
				body = append(body, st.diffRow(l, row))
			}
		}
	}
	return body
}

// wrapRows cuts text into rows of at most w cells, keeping every
// character (spaces at the breaks too).
func wrapRows(s string, w int) []string {
	var rows []string
	for _, line := range strings.Split(s, "\n") {
		rows = append(rows, strings.Split(ansi.Hardwrap(line, w, true), "\n")...)
	}
	return rows
}

// scroll moves the body by n rows (a page when n is ±page), kept within
// what there is to show.
func (q *question) scroll(l layout, n int) {
	q.top = max(min(q.top+n, len(l.body)-l.room), 0)
}

// view renders the dialog: what the call does, the facts and the
// coloured diff (scrolled when taller than the room), and the keys.
func (q *question) view(st *styles, width, rows int) string {
	l := q.layout(st, width, rows)
	q.scroll(l, 0)
	var b strings.Builder
	for _, t := range l.title {
		b.WriteString(t + "\n")
	}
	end := min(q.top+l.room, len(l.body))
	for _, row := range l.body[q.top:end] {
		b.WriteString(row + "\n")
	}
	if len(l.body) > l.room {
		for _, n := range l.note(q.top) {
			b.WriteString(st.warn.Render(n) + "\n")
		}
	}
	b.WriteString(strings.Join(l.keys, "\n"))
	return st.dialog.Width(min(width, 200)).Render(b.String())
}

// note says, when the body is scrolled from top, how many of its lines
// are not shown yet and which keys scroll, wrapped to the dialog.
func (l layout) note(top int) []string {
	var s string
	if below := len(l.body) - min(top+l.room, len(l.body)); below > 0 {
		s = fmt.Sprintf("↓ %d more lines not shown yet · ↑↓ pgup pgdn home end", below)
	} else {
		s = fmt.Sprintf("the end, %d lines · ↑ pgup home scroll back", len(l.body))
	}
	return strings.Split(ansi.Wrap(s, l.width, ""), "\n")
}

package chat

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/todo"
)

// plan is the model's plan (todo_write) as the chat shows it: pinned
// above the editor while a turn runs, put into the scrollback when a
// turn that changed it ends.
type plan struct {
	items []tools.Todo
	// changed: the model wrote it in this turn.
	changed bool
}

// begin takes the plan the conversation keeps at the start of a turn
// (another after /clear, /resume or /rewind).
func (p *plan) begin(items []tools.Todo) { *p = plan{items: items} }

// set takes the plan the model just wrote.
func (p *plan) set(items []tools.Todo) { p.items, p.changed = items, true }

// pinned reports whether the plan is shown above the editor: while a
// turn runs, when the model wrote it in this turn or steps are left.
func (p *plan) pinned() bool {
	if len(p.items) == 0 {
		return false
	}
	if p.changed {
		return true
	}
	for _, t := range p.items {
		if t.Status == tools.TodoPending || t.Status == tools.TodoInProgress {
			return true
		}
	}
	return false
}

// rows lays the plan out at width: a heading and one row a step, or,
// when short, one row with the heading and the step in progress.
func (p *plan) rows(st *styles, width int, short bool) []string {
	head := st.dim.Render("  plan · " + tools.TodoProgress(p.items))
	if short {
		if t, ok := p.focus(); ok {
			head += st.dim.Render(" · ") + p.step(st, t, width-ansi.StringWidth(head)-3)
		}
		return []string{ansi.Truncate(head, width, "…")}
	}
	rows := []string{head}
	for _, t := range p.items {
		rows = append(rows, "  "+p.step(st, t, width-2))
	}
	return rows
}

// focus is the step a short plan shows: the one in progress, else the
// next pending one.
func (p *plan) focus() (tools.Todo, bool) {
	for _, want := range []tools.TodoStatus{tools.TodoInProgress, tools.TodoPending} {
		for _, t := range p.items {
			if t.Status == want {
				return t, true
			}
		}
	}
	return tools.Todo{}, false
}

// step is one step's row: its mark and its text (the model's, escaped),
// cut to width.
func (p *plan) step(st *styles, t tools.Todo, width int) string {
	text := ansi.Truncate(termtext.Drawn(termtext.OneLine(t.Text)), max(width-2, 1), "…")
	mark := todo.Mark(t.Status)
	switch t.Status {
	case tools.TodoInProgress:
		return st.warn.Render(mark) + " " + st.bold.Render(text)
	case tools.TodoCompleted:
		return st.ok.Render(mark) + " " + st.dim.Render(text)
	case tools.TodoCancelled:
		return st.dim.Render(mark + " " + text)
	}
	return mark + " " + text
}

// planView is the pinned plan above the editor, "" when none is shown.
// It takes a third of the window at most, and one row while a question
// or picker needs the room.
func (m *Model) planView() string {
	if !m.running || !m.plan.pinned() {
		return ""
	}
	short := m.ask != nil || m.userq != nil || m.picker != nil ||
		m.height > 0 && len(m.plan.items)+1 > m.height/3
	return strings.Join(m.plan.rows(&m.st, m.width, short), "\n") + "\n"
}

// planEnded puts the plan into the scrollback when the turn that ends
// changed it, so that what was done stays in sight.
func (m *Model) planEnded() {
	if m.plan.changed {
		m.println(strings.Join(m.plan.rows(&m.st, m.width, false), "\n"))
		m.plan.changed = false
	}
}

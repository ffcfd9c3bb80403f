package chat

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/agentcli/agent/internal/termtext"
	"github.com/charmbracelet/x/ansi"
)

// queued is a message typed while a reply streams: sent when the turn
// ends, in the order typed.
type queued struct {
	shown  string // as typed, placeholders and all
	prompt string // with the pasted texts put back
}

// enqueue keeps a message typed while a reply streams.
func (m *Model) enqueue(text string) {
	m.queue = append(m.queue, queued{shown: text, prompt: m.expandPastes(text)})
	m.pastes = nil
}

// unqueue is Ctrl+X: the last queued message comes back into the editor
// (before what is typed there), to be edited or deleted.
func (m *Model) unqueue() {
	n := len(m.queue)
	if n == 0 {
		return
	}
	q := m.queue[n-1]
	m.queue = m.queue[:n-1]
	text := q.prompt
	if v := m.input.Value(); v != "" {
		text += "\n" + v
	}
	m.input.SetValue(text)
	m.input.MoveToEnd()
}

// sendQueued sends the first queued message once the turn is over.
func (m *Model) sendQueued() tea.Cmd {
	if m.running || len(m.queue) == 0 {
		return nil
	}
	q := m.queue[0]
	m.queue = m.queue[1:]
	return m.sendPrompt(q.shown, q.prompt, false)
}

// queueView shows the queued messages above the editor, one line each.
func (m *Model) queueView() string {
	if len(m.queue) == 0 {
		return ""
	}
	var b strings.Builder
	for _, q := range m.queue {
		line := "  ⧗ queued: " + oneLine(termtext.Drawn(q.shown))
		b.WriteString(m.st.dim.Render(ansi.Truncate(line, max(m.width-1, 10), "…")))
		b.WriteByte('\n')
	}
	b.WriteString(m.st.dim.Render("  sent when this turn ends · ctrl+x takes the last back"))
	b.WriteByte('\n')
	return b.String()
}

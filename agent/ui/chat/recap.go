package chat

import (
	"fmt"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/charmbracelet/x/ansi"
)

// recapTurns is how many of a resumed conversation's last turns the chat
// shows; recapLines how many lines of each answer.
const (
	recapTurns = 5
	recapLines = 3
)

// recap shows the recent turns of a conversation the chat continues
// (--continue, --session, /resume), compactly: each prompt on one line,
// the start of each answer dimmed under it.
func (m *Model) recap() string {
	turns, total := m.conv.Recap(recapTurns)
	if total == 0 {
		return ""
	}
	width := max(m.width-1, 20)
	var b strings.Builder
	head := fmt.Sprintf("  ⋯ continuing session %s: %d turns", m.info.Session, total)
	if total == 1 {
		head = fmt.Sprintf("  ⋯ continuing session %s: 1 turn", m.info.Session)
	}
	if n := total - len(turns); n > 0 {
		head += fmt.Sprintf(", the last %d below", len(turns))
	}
	b.WriteString(m.st.dim.Render(head))
	for _, e := range turns {
		b.WriteString("\n")
		b.WriteString(ansi.Truncate(m.st.userMark.Render("› ")+m.st.user.Render(oneLine(termtext.Drawn(e.Prompt))), width, "…"))
		lines := nonEmptyLines(termtext.Drawn(e.Reply))
		if e.Calls > 0 {
			calls := fmt.Sprintf("(%d tool calls)", e.Calls)
			if e.Calls == 1 {
				calls = "(1 tool call)"
			}
			lines = append([]string{calls}, lines...)
		}
		for i, l := range lines {
			if i == recapLines {
				l = "…"
			}
			b.WriteString("\n")
			b.WriteString(m.st.dim.Render(ansi.Truncate("  "+l, width, "…")))
			if i == recapLines {
				break
			}
		}
	}
	if p := (plan{items: m.conv.Todos()}); len(p.items) > 0 {
		b.WriteString("\n" + strings.Join(p.rows(&m.st, width, false), "\n"))
	}
	return b.String()
}

// nonEmptyLines are s's lines with text, trimmed.
func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

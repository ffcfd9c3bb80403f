package chat

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/hooks"
	"github.com/agentcli/agent/internal/termtext"
)

// hook shows what a hook did: on the card of the call it was about
// ("⚑ hook check.sh blocked write_file: …"), which shows the call's new
// input when the hook changed it; else as a line of its own.
func (m *Model) hook(e agent.Event) {
	if e.Hook == nil {
		return
	}
	if e.Call != nil {
		if c := m.cards[e.Call.ID]; c != nil {
			c.hooks = append(c.hooks, e.Text)
			if e.Hook.Action == hooks.ActionChanged {
				c.params = keyParams(e.Call.Params)
			}
			return
		}
	}
	if m.md != nil {
		m.prose(m.md.flush())
	}
	m.println(hookLine(&m.st, m.width, e.Text))
}

// hookLine is a hook's line, under a card or on its own, cut to width.
func hookLine(st *styles, width int, text string) string {
	line := st.warn.Render("    ⚑ ") + st.dim.Render(termtext.Drawn(text))
	if width > 0 && ansi.StringWidth(line) > width-1 {
		line = ansi.Truncate(line, width-1, "…")
	}
	return line
}

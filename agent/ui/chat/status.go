package chat

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentcli/agent/agent"
)

// statusLine shows provider and model, tokens in and out, the iteration
// while working, the project folder and the approval mode; a hint (such
// as "press ctrl+c again to quit") takes its place for a moment.
func (m *Model) statusLine() string {
	if m.hint != "" {
		return m.st.warn.Render("  " + m.hint)
	}
	var parts []string
	model := m.info.Model
	if m.info.Provider != "" {
		model = m.info.Provider + "/" + model
	}
	if model != "" {
		parts = append(parts, model)
	}
	parts = append(parts, fmt.Sprintf("%s in · %s out", tokens(m.info.TokensIn), tokens(m.info.TokensOut)))
	if m.running && m.iter > 0 {
		parts = append(parts, fmt.Sprintf("step %d", m.iter))
	}
	if m.info.Folder != "" {
		parts = append(parts, m.info.Folder)
	}
	left := m.st.status.Render("  " + strings.Join(parts, " · "))
	mode := m.modeLabel()
	if w := m.width - ansi.StringWidth(mode) - 2; ansi.StringWidth(left) > w {
		left = ansi.Truncate(left, max(w, 0), "…")
	}
	gap := max(m.width-ansi.StringWidth(left)-ansi.StringWidth(mode)-1, 1)
	return left + strings.Repeat(" ", gap) + mode
}

func (m *Model) modeLabel() string {
	switch m.info.Policy {
	case agent.PolicyAuto:
		return m.st.modeAuto.Render("auto-approve")
	case PolicyPlan:
		return m.st.modePlan.Render("plan (read-only)")
	case agent.PolicyNever:
		return m.st.mode.Render("writes off")
	}
	return m.st.mode.Render("ask · shift+tab")
}

// tokens shows 950, 12.3k, 1.2M.
func tokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1_000_000)
}

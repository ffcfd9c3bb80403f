package chat

import (
	"strings"

	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"
	"github.com/agentcli/agent/internal/termtext"
)

// A markdown table (| a | b | lines, the second a |---|:--:| separator)
// is drawn with borders, its columns aligned as the separator says and
// fitted to the window (cells wrap when the columns do not fit).

// tableLine says whether a line of the reply belongs to a table.
func tableLine(t string) bool { return strings.HasPrefix(t, "|") }

// maxTableLines bounds a table held open while it streams.
const maxTableLines = 200

// cells splits a table row into its cells; a \| stays in its cell.
func cells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
		row = row[:len(row)-1]
	}
	var out []string
	var cur strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			cur.WriteByte('|')
			i++
		case row[i] == '|':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(row[i])
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}

// separatorAligns reads a |---|:--:|--:| row: the alignment of each
// column, and whether row is one.
func separatorAligns(row []string) ([]lipgloss.Position, bool) {
	var out []lipgloss.Position
	for _, c := range row {
		t := strings.Trim(c, ":")
		if t == "" || strings.Trim(t, "-") != "" {
			return nil, false
		}
		a := lipgloss.Left
		switch {
		case strings.HasPrefix(c, ":") && strings.HasSuffix(c, ":"):
			a = lipgloss.Center
		case strings.HasSuffix(c, ":"):
			a = lipgloss.Right
		}
		out = append(out, a)
	}
	return out, true
}

// renderTable draws the table in lines; false when they are not a table
// (no separator under the first row), to be shown as they are.
func (m *markdown) renderTable(lines []string) (string, bool) {
	if len(lines) < 2 {
		return "", false
	}
	head := cells(lines[0])
	aligns, ok := separatorAligns(cells(lines[1]))
	if !ok {
		return "", false
	}
	for i := range head {
		head[i] = m.inline(termtext.Drawn(head[i]))
	}
	var rows [][]string
	for _, l := range lines[2:] {
		r := cells(l)
		for i := range r {
			r[i] = m.inline(termtext.Drawn(r[i]))
		}
		// Every row as wide as the header: missing cells empty, extra
		// ones dropped, as markdown does.
		r = append(r, make([]string, max(len(head)-len(r), 0))...)
		rows = append(rows, r[:len(head)])
	}
	st := m.st
	t := table.New().Border(lipgloss.RoundedBorder()).BorderStyle(st.dim).
		Headers(head...).Rows(rows...).Wrap(true).
		StyleFunc(func(row, col int) lipgloss.Style {
			s := lipgloss.NewStyle().Padding(0, 1)
			if col < len(aligns) {
				s = s.Align(aligns[col])
			}
			if row == table.HeaderRow {
				s = s.Inherit(st.bold)
			}
			return s
		})
	out := t.String()
	if lipgloss.Width(out) > m.width && m.width > 10 {
		out = t.Width(m.width).String()
	}
	return out, true
}

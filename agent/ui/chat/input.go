package chat

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// newEditor builds the multi-line input: Enter is the chat's (send), and
// Shift+Enter, Alt+Enter or Ctrl+J insert a new line.
func newEditor(width int) textarea.Model {
	t := textarea.New()
	t.ShowLineNumbers = false
	t.Prompt = "› "
	t.Placeholder = "Ask, or /help"
	t.CharLimit = 0
	t.DynamicHeight = true
	t.MinHeight = 1
	t.MaxHeight = 10
	t.MaxWidth = 0
	t.KeyMap.InsertNewline = key.NewBinding(key.WithKeys("shift+enter", "alt+enter", "ctrl+j"))
	// The textarea's own clipboard keys run xclip or wl-paste from the
	// plain PATH (atotto/clipboard); Ctrl+V is the chat's (clipboard.go)
	// and copying is the terminal's (this textarea copies nothing itself).
	t.KeyMap.Paste.SetEnabled(false)
	t.SetVirtualCursor(false)
	t.SetStyles(editorStyles(true))
	t.SetWidth(max(width-1, 10))
	t.SetHeight(1)
	return t
}

func editorStyles(dark bool) textarea.Styles {
	s := textarea.DefaultStyles(dark)
	s.Focused.CursorLine = lipgloss.NewStyle()
	s.Focused.Base = lipgloss.NewStyle()
	s.Blurred.Base = lipgloss.NewStyle()
	return s
}

// A paste this large goes into the editor as a placeholder, so that
// pasting a whole file is instant; the text is put back on send.
const pasteInline = 800

// paste inserts pasted text.
func (m *Model) paste(s string) {
	// Terminals send the line breaks of a paste as CR (what Enter
	// sends), some as CRLF.
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	if at, ok := droppedImage(s); ok {
		m.input.InsertString(at)
		return
	}
	if len(s) < pasteInline && strings.Count(s, "\n") < 10 {
		m.input.InsertString(s)
		return
	}
	m.pastes = append(m.pastes, s)
	m.input.InsertString(pastePlaceholder(len(m.pastes), s))
}

func pastePlaceholder(n int, s string) string {
	// A final line break ends the last line; it starts none.
	return fmt.Sprintf("[pasted #%d: %d lines]", n, strings.Count(strings.TrimSuffix(s, "\n"), "\n")+1)
}

// expandPastes puts the pasted texts back in place of their
// placeholders; the pastes are kept until the message is sent
// (sentPastes), as a refused attachment keeps the message in the editor.
func (m *Model) expandPastes(s string) string {
	for i, p := range m.pastes {
		s = strings.Replace(s, pastePlaceholder(i+1, p), p, 1)
	}
	return s
}

// completion is the list under the editor: slash commands or @paths.
type completion struct {
	kind  byte // '/' or '@', 0 when closed
	word  string
	items []compItem
	sel   int
}

type compItem struct {
	value, help string
}

const compShown = 6

// complete recomputes the completion for the word being typed.
func (m *Model) complete() {
	v := m.input.Value()
	m.comp = completion{}
	if strings.HasPrefix(v, "/") && !strings.ContainsAny(v, " \n") {
		m.comp = completion{kind: '/', word: v[1:], items: m.commandItems(v[1:])}
		return
	}
	i := strings.LastIndexAny(v, " \n")
	w := v[i+1:]
	if !strings.HasPrefix(w, "@") {
		return
	}
	m.comp = completion{kind: '@', word: w[1:]}
	if m.files == nil {
		return // the list is being read
	}
	m.comp.items = matchFiles(m.files, w[1:])
}

// matchFiles returns the files whose path contains q, those starting with
// it (or whose base name does) first.
func matchFiles(files []string, q string) []compItem {
	type scored struct {
		f     string
		score int
	}
	var hits []scored
	lq := strings.ToLower(q)
	for _, f := range files {
		lf := strings.ToLower(f)
		if !strings.Contains(lf, lq) {
			continue
		}
		s := 2
		switch {
		case strings.HasPrefix(lf, lq):
			s = 0
		case strings.Contains(lf, "/"+lq):
			s = 1
		}
		hits = append(hits, scored{f, s})
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score < hits[j].score
		}
		return len(hits[i].f) < len(hits[j].f)
	})
	out := make([]compItem, 0, min(len(hits), 50))
	for _, h := range hits[:min(len(hits), 50)] {
		out = append(out, compItem{value: h.f})
	}
	return out
}

// accept puts the selected completion into the editor.
func (m *Model) accept() bool {
	if m.comp.kind == 0 || len(m.comp.items) == 0 {
		return false
	}
	it := m.comp.items[m.comp.sel]
	v := m.input.Value()
	switch m.comp.kind {
	case '/':
		m.input.SetValue("/" + it.value + " ")
	case '@':
		i := strings.LastIndexAny(v, " \n")
		m.input.SetValue(v[:i+1] + "@" + it.value + " ")
	}
	m.input.MoveToEnd()
	m.comp = completion{}
	return true
}

func (c *completion) move(d int) {
	if len(c.items) > 0 {
		c.sel = (c.sel + d + len(c.items)) % len(c.items)
	}
}

func (c *completion) view(st *styles, width int) string {
	if c.kind == 0 {
		return ""
	}
	if len(c.items) == 0 {
		if c.kind == '@' {
			return st.dim.Render("  no matching file")
		}
		return st.dim.Render("  no such command: /help lists them")
	}
	start := 0
	if c.sel >= compShown {
		start = c.sel - compShown + 1
	}
	var lines []string
	for i := start; i < len(c.items) && i < start+compShown; i++ {
		it := c.items[i]
		name := string(c.kind) + it.value
		line := "  " + name
		if it.help != "" {
			line += "  " + st.dim.Render(it.help)
		}
		if i == c.sel {
			line = st.selected.Render("▸ "+name) + "  " + st.dim.Render(it.help)
		}
		lines = append(lines, ansi.Truncate(line, max(width-1, 10), "…"))
	}
	if n := len(c.items) - compShown; n > 0 {
		lines = append(lines, st.dim.Render(fmt.Sprintf("  … %d more; tab completes", n)))
	}
	return strings.Join(lines, "\n")
}

package chat

import (
	"strings"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/charmbracelet/x/ansi"
)

// markdown renders a streamed reply block by block. Finished blocks
// (a paragraph ended by a blank line, a heading, each line of a code
// block) are rendered once and handed back to be printed into the
// scrollback; only the open block is re-rendered as deltas arrive, so the
// cost of a delta does not grow with the reply.
type markdown struct {
	st    *styles
	width int

	partial string   // the last line, not yet ended
	block   []string // the lines of the open paragraph or list
	fence   string   // the fence that opened the current code block
	lang    string   // its language
	comment bool     // the highlighter is inside a block comment
	started bool     // a block was printed: the next one is set apart
	cont    bool     // the open block continues a paragraph cut at maxBlockLines

	// gen counts the changes to what live draws; the view is drawn after
	// every message, and the open block is redrawn only when it changed.
	gen            int
	liveGen, liveW int
	liveText       string
	liveOK         bool
}

// restyle redraws the open block with new styles.
func (m *markdown) restyle() { m.gen++ }

// block sets a new block apart from the one before by a blank line.
func (m *markdown) block1(s string) string {
	if m.started && !m.cont {
		s = "\n" + s
	}
	m.started, m.cont = true, false
	return s
}

// maxBlockLines bounds the open block: a long paragraph without a blank
// line is printed in parts rather than redrawn whole on every delta.
const maxBlockLines = 12

func newMarkdown(st *styles, width int) *markdown {
	return &markdown{st: st, width: width}
}

// feed adds streamed text and returns the blocks it finished, rendered.
func (m *markdown) feed(s string) []string {
	var out []string
	m.gen++
	s = m.partial + s
	for {
		nl := strings.IndexByte(s, '\n')
		if nl < 0 {
			break
		}
		out = append(out, m.line(s[:nl])...)
		s = s[nl+1:]
	}
	m.partial = s
	return out
}

// flush ends the reply and returns what was still open, rendered.
func (m *markdown) flush() []string {
	var out []string
	m.gen++
	if m.partial != "" {
		out = append(out, m.line(m.partial)...)
		m.partial = ""
	}
	if m.fence != "" {
		m.fence = ""
	}
	if b := m.renderBlock(); b != "" {
		out = append(out, m.block1(b))
	}
	m.block = m.block[:0]
	return out
}

// live renders the open block and the partial line.
func (m *markdown) live() string {
	if !m.liveOK || m.liveGen != m.gen || m.liveW != m.width {
		m.liveText, m.liveGen, m.liveW, m.liveOK = m.drawLive(), m.gen, m.width, true
	}
	return m.liveText
}

func (m *markdown) drawLive() string {
	if m.fence != "" {
		if m.partial == "" {
			return ""
		}
		c := m.comment
		return m.codeLine(m.partial, &c)
	}
	lines := m.block
	if len(lines) == 0 && m.partial == "" {
		return ""
	}
	if m.partial != "" {
		lines = append(lines[:len(lines):len(lines)], m.partial)
	}
	if m.started && !m.cont {
		return "\n" + m.render(lines)
	}
	return m.render(lines)
}

// line takes one complete line of the reply.
func (m *markdown) line(l string) []string {
	l = strings.TrimSuffix(l, "\r")
	trimmed := strings.TrimSpace(l)
	if m.fence != "" {
		if strings.HasPrefix(trimmed, m.fence) && strings.Trim(trimmed, m.fence[:1]) == "" {
			m.fence, m.comment = "", false
			return nil
		}
		return []string{m.codeLine(l, &m.comment)}
	}
	var out []string
	flush := func() {
		if b := m.renderBlock(); b != "" {
			out = append(out, m.block1(b))
		}
		m.block = m.block[:0]
	}
	switch {
	case trimmed == "":
		flush()
	case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
		flush()
		m.fence = trimmed[:3]
		m.lang = strings.TrimSpace(strings.Trim(trimmed, "`~"))
		label := m.lang
		if label == "" {
			label = "code"
		}
		out = append(out, m.block1(m.st.dim.Render("  ╭ "+label)))
	case strings.HasPrefix(trimmed, "#"):
		flush()
		out = append(out, m.block1(m.render([]string{l})))
	case tableLine(trimmed):
		// A table is a block of its own, held whole (up to a bound) so
		// that its columns are measured over all its rows.
		if len(m.block) > 0 && !tableLine(strings.TrimSpace(m.block[0])) {
			flush()
		}
		m.block = append(m.block, l)
		if len(m.block) >= maxTableLines {
			flush()
		}
	default:
		if len(m.block) > 0 && tableLine(strings.TrimSpace(m.block[0])) {
			flush()
		}
		m.block = append(m.block, l)
		if len(m.block) >= maxBlockLines {
			flush()
			m.cont = true
		}
	}
	return out
}

func (m *markdown) renderBlock() string {
	if len(m.block) == 0 {
		return ""
	}
	return m.render(m.block)
}

// codeLine renders one line of a code block: highlighted, behind a gutter.
func (m *markdown) codeLine(l string, comment *bool) string {
	code := m.st.highlight(m.lang, termtext.Drawn(l), comment)
	gutter := m.st.dim.Render("  │ ")
	if w := m.width - 4; w > 10 && ansi.StringWidth(code) > w {
		code = ansi.Hardwrap(code, w, true)
		code = strings.ReplaceAll(code, "\n", "\n"+gutter)
	}
	return gutter + code
}

// render renders the lines of a paragraph, list, quote or heading.
func (m *markdown) render(lines []string) string {
	if len(lines) > 1 && tableLine(strings.TrimSpace(lines[0])) {
		if t, ok := m.renderTable(lines); ok {
			return t
		}
	}
	var out []string
	var para []string
	endPara := func() {
		if len(para) > 0 {
			out = append(out, m.wrap(m.inline(strings.Join(para, " ")), "", ""))
			para = para[:0]
		}
	}
	for _, l := range lines {
		l = termtext.Drawn(l)
		t := strings.TrimSpace(l)
		indent := strings.Repeat(" ", min(len(l)-len(strings.TrimLeft(l, " ")), 8))
		switch {
		case strings.HasPrefix(t, "#"):
			endPara()
			h := strings.TrimSpace(strings.TrimLeft(t, "#"))
			out = append(out, m.wrap(m.st.heading.Render(h), "", ""))
		case t == "---" || t == "***" || t == "___":
			endPara()
			out = append(out, m.st.dim.Render(strings.Repeat("─", max(min(m.width, 40), 3))))
		case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ "):
			endPara()
			out = append(out, m.wrap(m.inline(t[2:]), indent+m.st.bullet.Render("• "), indent+"  "))
		case orderedItem(t) > 0:
			endPara()
			n := orderedItem(t)
			out = append(out, m.wrap(m.inline(strings.TrimSpace(t[n:])), indent+m.st.bullet.Render(t[:n]+" "), indent+strings.Repeat(" ", n+1)))
		case strings.HasPrefix(t, ">"):
			endPara()
			bar := m.st.dim.Render("│ ")
			out = append(out, m.wrap(m.st.quote.Render(strings.TrimSpace(t[1:])), bar, bar))
		case strings.HasPrefix(t, "|"):
			endPara()
			out = append(out, l) // tables keep their columns
		default:
			para = append(para, t)
		}
	}
	endPara()
	return strings.Join(out, "\n")
}

// orderedItem returns the length of "12." at the start of t, or 0.
func orderedItem(t string) int {
	i := 0
	for i < len(t) && i < 4 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' ' {
		return i + 1
	}
	return 0
}

// wrap wraps styled text to the width, with a prefix on the first line
// and a hanging indent on the others.
func (m *markdown) wrap(s, first, rest string) string {
	w := m.width - ansi.StringWidth(first)
	if w < 20 {
		w = 20
	}
	wrapped := ansi.Wrap(s, w, "")
	return first + strings.ReplaceAll(wrapped, "\n", "\n"+rest)
}

// inline renders `code`, **bold**, *italic* / _italic_ and [links](url).
func (m *markdown) inline(s string) string {
	if !strings.ContainsAny(s, "`*_[") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '`':
			if j := strings.IndexByte(s[i+1:], '`'); j >= 0 {
				b.WriteString(m.st.code.Render(s[i+1 : i+1+j]))
				i += j + 2
				continue
			}
		case c == '*' && strings.HasPrefix(s[i:], "**"), c == '_' && strings.HasPrefix(s[i:], "__"):
			if j := strings.Index(s[i+2:], s[i:i+2]); j > 0 {
				b.WriteString(m.st.bold.Render(s[i+2 : i+2+j]))
				i += j + 4
				continue
			}
		case c == '*' || c == '_' && (i == 0 || s[i-1] == ' '):
			if j := strings.IndexByte(s[i+1:], c); j > 0 && s[i+1] != ' ' {
				b.WriteString(m.st.ital.Render(s[i+1 : i+1+j]))
				i += j + 2
				continue
			}
		case c == '[':
			if j := strings.Index(s[i:], "]("); j > 0 {
				if k := strings.IndexByte(s[i+j:], ')'); k > 0 {
					text, url := s[i+1:i+j], s[i+j+2:i+j+k]
					b.WriteString(m.st.link.Render(text))
					if url != text {
						b.WriteString(m.st.dim.Render(" (" + url + ")"))
					}
					i += j + k + 1
					continue
				}
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

package frontmatter

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// quoted reads a "double-quoted" or 'single-quoted' value that starts
// rest, on line l and as many lines after it as it takes to close. Line
// breaks inside fold as YAML folds them: one becomes a space, each blank
// line a line break; a backslash at a line's end joins the lines.
func (p *parser) quoted(rest string, l line) (Value, error) {
	q := rest[0]
	var b []byte
	cur := rest[1:]
	for {
		joined := false
		for i := 0; i < len(cur); {
			c := cur[i]
			switch {
			case c == '\'' && q == '\'' && i+1 < len(cur) && cur[i+1] == '\'':
				b = append(b, '\'')
				i += 2
			case c == q:
				if after := strings.TrimLeft(cur[i+1:], " \t"); after != "" && (after[0] != '#' || after == cur[i+1:]) {
					return Value{}, errorf(l, "text after the closing quote; quote the whole value")
				}
				return Value{Kind: Scalar, Text: string(b)}, nil
			case c == '\\' && q == '"' && i+1 == len(cur):
				joined = true
				i++
			case c == '\\' && q == '"':
				n, s, ok := unescape(cur[i+1:])
				if !ok {
					return Value{}, errorf(l, "a bad escape \\%s in a double-quoted value", firstRune(cur[i+1:]))
				}
				b = append(b, s...)
				i += 1 + n
			default:
				b = append(b, c)
				i++
			}
		}
		if p.i >= len(p.lines) {
			return Value{}, errorf(l, "the quoted value is never closed")
		}
		for !joined && len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
			b = b[:len(b)-1]
		}
		breaks := 0
		for p.i < len(p.lines) && strings.TrimSpace(p.lines[p.i].raw) == "" {
			breaks++
			p.i++
		}
		if p.i >= len(p.lines) {
			return Value{}, errorf(l, "the quoted value is never closed")
		}
		switch {
		case breaks > 0:
			b = append(b, strings.Repeat("\n", breaks)...)
		case !joined:
			b = append(b, ' ')
		}
		cur = strings.TrimLeft(p.lines[p.i].raw, " \t")
		p.i++
	}
}

func firstRune(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || r == utf8.RuneError {
		return ""
	}
	return string(r)
}

// unescape reads the escape after a backslash at the start of s: how
// many bytes it takes and what it stands for.
func unescape(s string) (int, string, bool) {
	if s == "" {
		return 0, "", false
	}
	if r, ok := simpleEscape(s[0]); ok {
		return 1, r, true
	}
	digits := 0
	switch s[0] {
	case 'x':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	}
	if digits == 0 || len(s) < 1+digits {
		return 0, "", false
	}
	n, err := strconv.ParseUint(s[1:1+digits], 16, 32)
	if err != nil || n > utf8.MaxRune || n >= 0xd800 && n <= 0xdfff {
		return 0, "", false
	}
	return 1 + digits, string(rune(n)), true
}

// simpleEscape is what the one-character escape \c of double-quoted
// YAML stands for.
func simpleEscape(c byte) (string, bool) {
	switch c {
	case '0':
		return "\x00", true
	case 'a':
		return "\a", true
	case 'b':
		return "\b", true
	case 't', '\t':
		return "\t", true
	case 'n':
		return "\n", true
	case 'v':
		return "\v", true
	case 'f':
		return "\f", true
	case 'r':
		return "\r", true
	case 'e':
		return "\x1b", true
	case ' ', '"', '/', '\\':
		return string(c), true
	case 'N':
		return "\u0085", true
	case '_':
		return "\u00a0", true
	case 'L':
		return "\u2028", true
	case 'P':
		return "\u2029", true
	}
	return "", false
}

// block reads a block scalar (| literal, > folded) whose header is rest,
// on line l; its lines follow, indented more than parent. A header with
// more on its line ("description: | Use when...", which YAML rejects)
// is read as a plain value, as written.
func (p *parser) block(rest string, parent int, l line) (Value, error) {
	style, chomp, explicit := rest[0], byte(0), 0
	h := rest[1:]
	for k := 0; k < 2 && h != ""; k++ {
		c := h[0]
		if (c == '-' || c == '+') && chomp == 0 {
			chomp = c
		} else if c >= '1' && c <= '9' && explicit == 0 {
			explicit = int(c - '0')
		} else {
			break
		}
		h = h[1:]
	}
	if t := strings.TrimLeft(h, " \t"); t != "" && (t[0] != '#' || t == h) {
		return p.scalar(rest, parent, l)
	}
	ind := parent + explicit
	if explicit == 0 {
		ind = -1
		for j := p.i; j < len(p.lines); j++ {
			if strings.TrimSpace(p.lines[j].raw) != "" {
				ind = leadingSpaces(p.lines[j].raw)
				break
			}
		}
		if ind <= parent {
			return Value{Kind: Scalar}, nil
		}
	}
	var lines []string
	for p.i < len(p.lines) {
		raw := p.lines[p.i].raw
		sp := leadingSpaces(raw)
		switch {
		case strings.TrimSpace(raw) == "":
			if sp > ind {
				lines = append(lines, raw[ind:])
			} else {
				lines = append(lines, "")
			}
		case sp < ind:
			return chompBlock(style, chomp, lines), nil
		default:
			lines = append(lines, raw[ind:])
		}
		p.i++
	}
	return chompBlock(style, chomp, lines), nil
}

func leadingSpaces(s string) int {
	n := 0
	for n < len(s) && s[n] == ' ' {
		n++
	}
	return n
}

// chompBlock joins a block scalar's lines (literal: as they are;
// folded: a line break between two lines of text becomes a space) and
// applies its chomping: - no final line break, + every trailing one,
// and by default one.
func chompBlock(style, chomp byte, lines []string) Value {
	trailing := 0
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
		trailing++
	}
	var text string
	if style == '|' {
		text = strings.Join(lines, "\n")
	} else {
		text = fold(lines)
	}
	switch {
	case chomp == '-':
	case chomp == '+':
		if len(lines) > 0 {
			text += "\n"
		}
		text += strings.Repeat("\n", trailing)
	case len(lines) > 0:
		text += "\n"
	}
	return Value{Kind: Scalar, Text: text}
}

// fold joins a folded block's lines: lines of text next to each other
// become one line; a blank line is a line break; a more-indented line
// keeps its own line.
func fold(lines []string) string {
	var b strings.Builder
	wrote, prevText := false, false
	breaks := 0
	for _, ln := range lines {
		if strings.TrimSpace(ln) == "" {
			breaks++
			continue
		}
		more := ln[0] == ' ' || ln[0] == '\t'
		switch {
		case !wrote:
			b.WriteString(strings.Repeat("\n", breaks))
		case prevText && !more && breaks == 0:
			b.WriteByte(' ')
		case prevText && !more:
			b.WriteString(strings.Repeat("\n", breaks))
		default:
			b.WriteString(strings.Repeat("\n", breaks+1))
		}
		b.WriteString(ln)
		wrote, prevText, breaks = true, !more, 0
	}
	return b.String()
}

package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// This file turns a terminal screen, as `tmux capture-pane -e -p` prints
// it (text with SGR escapes), into an SVG picture: the README's image of
// the chat is the real chat's screen, not a drawing. It lives in a test
// file so that nothing of it is linked into the agent binary.

// shotStyle is the look of one terminal cell.
type shotStyle struct {
	fg, bg                       string // "" is the terminal's default
	bold, dim, italic, underline bool
	strike, reverse              bool
}

// shotCell is one cell of the screen: its text (empty for the second
// half of a wide character) and style.
type shotCell struct {
	text  string
	style shotStyle
	cont  bool // the right half of a wide character
}

// Geometry and colours of the picture. The cell width is 0.6 em, the
// advance of the common monospace fonts; every run of text is also given
// its exact length, so the grid holds in any font.
const (
	shotFontSize = 14
	shotCellW    = 8.4
	shotLineH    = 18
	shotPad      = 16
	shotTitleH   = 28
	shotBG       = "#1d1f21"
	shotFG       = "#c5c8c6"
)

// shotPalette are the 16 basic colours (Tomorrow Night, then its bright
// half).
var shotPalette = [16]string{
	"#1d1f21", "#cc6666", "#b5bd68", "#f0c674", "#81a2be", "#b294bb", "#8abeb7", "#c5c8c6",
	"#666666", "#d54e53", "#b9ca4a", "#e7c547", "#7aa6da", "#c397d8", "#70c0b1", "#eaeaea",
}

// screenSVG draws the captured screen as an SVG of cols×rows cells.
func screenSVG(capture string, cols, rows int) string {
	grid := parseScreen(capture, cols, rows)
	w := float64(cols)*shotCellW + 2*shotPad
	h := float64(rows*shotLineH + 2*shotPad + shotTitleH)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace" font-size="%d" xml:space="preserve">`+"\n",
		num(w), num(h), num(w), num(h), shotFontSize)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" rx="8" fill="%s"/>`+"\n", shotBG)
	for i, c := range []string{"#ff5f56", "#ffbd2e", "#27c93f"} {
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="6" fill="%s"/>`+"\n", shotPad+6+i*20, shotTitleH/2+4, c)
	}
	top := float64(shotPad + shotTitleH)
	for y, line := range grid {
		drawBackgrounds(&b, line, top+float64(y*shotLineH))
	}
	for y, line := range grid {
		drawText(&b, line, top+float64(y*shotLineH))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// parseScreen reads the capture into a grid of cells.
func parseScreen(capture string, cols, rows int) [][]shotCell {
	lines := strings.Split(strings.TrimSuffix(capture, "\n"), "\n")
	grid := make([][]shotCell, rows)
	for y := range grid {
		grid[y] = make([]shotCell, cols)
		for x := range grid[y] {
			grid[y][x].text = " "
		}
	}
	var st shotStyle // tmux carries the style across line ends
	for y, line := range lines {
		if y >= rows {
			break
		}
		x := 0
		for i := 0; i < len(line); {
			if line[i] == 0x1b {
				i += escape(line[i:], &st)
				continue
			}
			_, size := utf8.DecodeRuneInString(line[i:])
			s := line[i : i+size]
			i += size
			wd := ansi.StringWidth(s)
			switch {
			case wd == 0 && x > 0: // a combining mark joins the cell before
				grid[y][x-1].text += s
			case wd > 0 && x+wd <= cols:
				grid[y][x] = shotCell{text: s, style: st}
				for k := 1; k < wd; k++ {
					grid[y][x+k] = shotCell{style: st, cont: true}
				}
				x += wd
			}
		}
	}
	return grid
}

// escape applies the escape sequence at the start of s to st and returns
// its length. SGR (ESC [ ... m) sets the style; other sequences (OSC 8
// hyperlinks) are skipped.
func escape(s string, st *shotStyle) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		end := 2
		for end < len(s) && (s[end] < 0x40 || s[end] > 0x7e) {
			end++
		}
		if end == len(s) {
			return end
		}
		if s[end] == 'm' {
			sgr(s[2:end], st)
		}
		return end + 1
	case ']':
		for k := 2; k < len(s); k++ {
			if s[k] == '\a' {
				return k + 1
			}
			if s[k] == 0x1b && k+1 < len(s) && s[k+1] == '\\' {
				return k + 2
			}
		}
		return len(s)
	}
	return 2
}

// sgr applies one Select Graphic Rendition parameter list.
func sgr(params string, st *shotStyle) {
	if params == "" {
		*st = shotStyle{}
		return
	}
	ps := strings.FieldsFunc(params, func(r rune) bool { return r == ';' || r == ':' })
	for i := 0; i < len(ps); i++ {
		n, _ := strconv.Atoi(ps[i])
		switch {
		case n == 0:
			*st = shotStyle{}
		case n == 1:
			st.bold = true
		case n == 2:
			st.dim = true
		case n == 3:
			st.italic = true
		case n == 4:
			st.underline = true
		case n == 7:
			st.reverse = true
		case n == 9:
			st.strike = true
		case n == 22:
			st.bold, st.dim = false, false
		case n == 23:
			st.italic = false
		case n == 24:
			st.underline = false
		case n == 27:
			st.reverse = false
		case n == 29:
			st.strike = false
		case n >= 30 && n <= 37:
			st.fg = shotPalette[n-30]
		case n >= 90 && n <= 97:
			st.fg = shotPalette[n-90+8]
		case n >= 40 && n <= 47:
			st.bg = shotPalette[n-40]
		case n >= 100 && n <= 107:
			st.bg = shotPalette[n-100+8]
		case n == 39:
			st.fg = ""
		case n == 49:
			st.bg = ""
		case n == 38 || n == 48:
			c, used := extendedColour(ps[i+1:])
			i += used
			if n == 38 {
				st.fg = c
			} else {
				st.bg = c
			}
		}
	}
}

// extendedColour reads "5;N" (the 256-colour table) or "2;R;G;B" after a
// 38 or 48, and returns the colour and how many parameters it used.
func extendedColour(ps []string) (string, int) {
	if len(ps) >= 2 && ps[0] == "5" {
		n, _ := strconv.Atoi(ps[1])
		return colour256(n), 2
	}
	if len(ps) >= 4 && ps[0] == "2" {
		var c [3]int
		for k := range c {
			c[k], _ = strconv.Atoi(ps[1+k])
		}
		return fmt.Sprintf("#%02x%02x%02x", c[0]&255, c[1]&255, c[2]&255), 4
	}
	return "", len(ps)
}

// colour256 is colour n of xterm's 256-colour table.
func colour256(n int) string {
	switch {
	case n < 16:
		return shotPalette[max(n, 0)]
	case n < 232:
		n -= 16
		level := func(v int) int {
			if v == 0 {
				return 0
			}
			return 55 + 40*v
		}
		return fmt.Sprintf("#%02x%02x%02x", level(n/36), level(n/6%6), level(n%6))
	case n < 256:
		g := 8 + 10*(n-232)
		return fmt.Sprintf("#%02x%02x%02x", g, g, g)
	}
	return ""
}

// colours are the fill and background a style draws with.
func (s shotStyle) colours() (fg, bg string) {
	fg, bg = s.fg, s.bg
	if fg == "" {
		fg = shotFG
	}
	if s.reverse {
		fg, bg = bg, fg
		if fg == "" {
			fg = shotBG
		}
	}
	return fg, bg
}

// drawBackgrounds draws the runs of cells with a background colour.
func drawBackgrounds(b *strings.Builder, line []shotCell, top float64) {
	for x := 0; x < len(line); {
		_, bg := line[x].style.colours()
		end := x + 1
		for end < len(line) {
			if _, next := line[end].style.colours(); next != bg {
				break
			}
			end++
		}
		if bg != "" {
			fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%d" fill="%s"/>`+"\n",
				num(shotPad+float64(x)*shotCellW), num(top), num(float64(end-x)*shotCellW), shotLineH, bg)
		}
		x = end
	}
}

// drawText draws the runs of cells that share a style, each placed at its
// column and stretched to its exact width. Blank cells outside a run are
// not drawn.
func drawText(b *strings.Builder, line []shotCell, top float64) {
	baseline := top + shotLineH*0.75
	for x := 0; x < len(line); {
		st := line[x].style
		if line[x].text == " " && !st.decorated() {
			x++
			continue
		}
		// A wide character is a run of its own, so that the font's
		// idea of its width cannot shift the cells after it.
		end := x + 1
		if wide(line, x) {
			for end < len(line) && line[end].cont {
				end++
			}
		} else {
			for end < len(line) && line[end].style == st && !wide(line, end) {
				end++
			}
		}
		last := end
		for last > x+1 && line[last-1].text == " " && !st.decorated() {
			last--
		}
		var text strings.Builder
		for _, c := range line[x:last] {
			text.WriteString(c.text)
		}
		writeRun(b, st, text.String(), x, last-x, baseline)
		x = end
	}
}

// wide reports whether the cell at x holds a character two cells wide.
func wide(line []shotCell, x int) bool { return x+1 < len(line) && line[x+1].cont }

// decorated reports whether a blank cell of this style shows something.
func (s shotStyle) decorated() bool { return s.underline || s.strike }

// writeRun writes one <text> element.
func writeRun(b *strings.Builder, st shotStyle, text string, col, cells int, baseline float64) {
	fg, _ := st.colours()
	fmt.Fprintf(b, `<text x="%s" y="%s" textLength="%s" lengthAdjust="spacingAndGlyphs" fill="%s"`,
		num(shotPad+float64(col)*shotCellW), num(baseline), num(float64(cells)*shotCellW), fg)
	if st.bold {
		b.WriteString(` font-weight="bold"`)
	}
	if st.dim {
		b.WriteString(` fill-opacity="0.6"`)
	}
	if st.italic {
		b.WriteString(` font-style="italic"`)
	}
	switch {
	case st.underline && st.strike:
		b.WriteString(` text-decoration="underline line-through"`)
	case st.underline:
		b.WriteString(` text-decoration="underline"`)
	case st.strike:
		b.WriteString(` text-decoration="line-through"`)
	}
	b.WriteString(">")
	b.WriteString(xmlEscape(text))
	b.WriteString("</text>\n")
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// num prints a coordinate without needless decimals.
func num(f float64) string { return strconv.FormatFloat(math.Round(f*100)/100, 'f', -1, 64) }

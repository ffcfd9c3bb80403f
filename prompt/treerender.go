package prompt

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// render writes n and, when it is expanded, its children.
func (w *walker) render(b *strings.Builder, n *node, depth int, t *Tree) {
	for range depth {
		b.WriteString("  ")
	}
	emoji := w.opts.Style == Emoji
	name := displayName(n.name)
	t.Lines++
	switch {
	case n.link != "":
		if emoji {
			b.WriteString("🔗 ")
		}
		b.WriteString(name + " -> " + displayName(n.link) + "\n")
		t.Files++
		return
	case !n.isDir:
		if emoji {
			b.WriteString("📝 ")
		}
		b.WriteString(name + "\n")
		t.Files++
		return
	}
	if emoji {
		b.WriteString("📁 ")
	}
	b.WriteString(name + "/")
	switch {
	case n.expanded && len(n.children) == 0:
		b.WriteString(" (empty)\n")
		return
	case n.expanded:
		b.WriteString("\n")
		for _, c := range n.children {
			w.render(b, c, depth+1, t)
		}
		return
	case n.unreadable:
		b.WriteString(" (unreadable)\n")
		return
	}
	t.Collapsed++
	// A count that reached the limit is shown as "limit+" whatever it
	// reached: parallel counters may overshoot by a varying amount, and
	// the tree must be the same on every run.
	files := w.countOf(n)
	t.Files += files
	switch {
	case files == 0:
		b.WriteString(" (empty)\n")
	case files >= w.opts.CountLimit:
		fmt.Fprintf(b, " (%s+ files)\n", thousands(files))
	case files == 1:
		b.WriteString(" (1 file)\n")
	default:
		fmt.Fprintf(b, " (%s files)\n", thousands(files))
	}
}

// displayName quotes names that would break the one-entry-per-line
// layout (control characters, line separators), that hide what they are
// (format characters: a right-to-left override makes "rtl\u202etxt.exe"
// read as an .exe reversed, a zero-width space makes two names look
// alike) or are not valid UTF-8.
func displayName(s string) string {
	if !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	for _, r := range s {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// thousands formats n with comma separators: 38102 -> "38,102".
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

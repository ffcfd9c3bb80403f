package prompt

import (
	"fmt"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
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

// displayName is a name as the tree shows it (termtext.Name).
func displayName(s string) string { return termtext.Name(s) }

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

package chat

import (
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"
)

// prepaint draws the banner and the first frame at once, before Bubble
// Tea starts. Bubble Tea draws its first frame at its first tick, 1/120 s
// after it starts, and it would be the same frame: drawn here, the prompt
// is on the screen that much sooner, and Bubble Tea's frame then covers
// it cell for cell. Keys typed meanwhile wait in the terminal, as they
// would anyway. It does nothing unless out is a terminal whose size is
// known.
func (m *Model) prepaint(out io.Writer) {
	f, ok := out.(interface{ Fd() uintptr })
	if !ok {
		return
	}
	w, h, err := term.GetSize(int(f.Fd()))
	if err != nil || w <= 0 || h <= 0 {
		return
	}
	m.resize(w, h)
	m.input.Focus()
	frame := m.View().Content
	rows := strings.Count(frame, "\n") + 1
	intro := m.intro()
	if rows+rowCount([]string{intro}, w) >= h {
		return // taller than the screen: Bubble Tea's frame scrolls differently
	}
	var sb strings.Builder
	// From the start of the line; the banner (and the recap of a
	// continued conversation) goes into the scrollback like any printed
	// line, the frame under it. Printed here rather than by Bubble Tea:
	// a print before its first frame lands under this one.
	for _, l := range strings.Split(m.downsample(intro), "\n") {
		sb.WriteString("\r" + l + ansi.EraseLineRight + "\r\n")
	}
	for i, l := range strings.Split(m.downsample(frame), "\n") {
		if i > 0 {
			sb.WriteString("\r\n")
		}
		sb.WriteString(l + ansi.EraseLineRight)
	}
	// Back to the frame's first line, where Bubble Tea starts drawing.
	sb.WriteString("\r")
	if rows > 1 {
		sb.WriteString(ansi.CursorUp(rows - 1))
	}
	if _, err := io.WriteString(out, sb.String()); err == nil {
		m.bannerShown = true
	}
}

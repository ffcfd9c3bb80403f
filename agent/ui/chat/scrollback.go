package chat

import (
	"strings"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// How printed text fits the terminal: the frames that may still be on
// the screen when a print lands, a print cut into parts that fit above
// them, and the colours of what is printed.

// frameMemory is how long a frame drawn may still be on the screen: the
// renderer draws the latest one at its next tick, a few of which fit in
// it even on a loaded machine.
const frameMemory = 100 * time.Millisecond

// recentFrames remembers the heights of the frames drawn lately. A print
// lands as soon as its command runs, but a frame only at the renderer's
// next tick, so the frame under a print may be an older, taller one
// (the completion list just closed by Enter, say).
type recentFrames struct {
	rows []int
	at   []time.Time
}

// add records a frame of rows drawn at now, forgetting those older than
// frameMemory.
func (f *recentFrames) add(rows int, now time.Time) {
	f.rows, f.at = append(f.rows, rows), append(f.at, now)
	old := 0
	for old < len(f.at)-1 && now.Sub(f.at[old]) > frameMemory {
		old++
	}
	f.rows, f.at = f.rows[old:], f.at[old:]
}

// tallest is the tallest frame that may be on the screen at now: the
// latest, and any drawn within frameMemory.
func (f *recentFrames) tallest(now time.Time) int {
	n := 0
	for i, r := range f.rows {
		if i == len(f.rows)-1 || now.Sub(f.at[i]) <= frameMemory {
			n = max(n, r)
		}
	}
	return n
}

// chunkRows splits s into parts of at most rows terminal rows at width
// (as printRows counts them); rows <= 0 keeps s whole.
func chunkRows(s string, width, rows int) []string {
	if rows <= 0 || width <= 0 {
		return []string{s}
	}
	var out []string
	lines := strings.Split(s, "\n")
	start, used := 0, 0
	for i, l := range lines {
		n := printRows(l, width)
		if used > 0 && used+n > rows {
			out = append(out, strings.Join(lines[start:i], "\n"))
			start, used = i, 0
		}
		used += n
	}
	return append(out, strings.Join(lines[start:], "\n"))
}

// printRows is how many rows Bubble Tea scrolls for one printed line at
// width: one, and one more per full width beyond the first (so a line of
// exactly twice the width counts three), which is what the room above
// the frame must hold.
func printRows(line string, width int) int {
	w := ansi.StringWidth(line)
	if width <= 0 || w <= width {
		return 1
	}
	return 1 + w/width
}

// downsample fits printed text to the terminal's colours: Bubble Tea does
// that for the frame it draws but prints lines into the scrollback as they
// are, so NO_COLOR and 256-colour terminals would get true colour there.
func (m *Model) downsample(s string) string {
	if m.profile == colorprofile.Unknown || m.profile == colorprofile.TrueColor {
		return s
	}
	var sb strings.Builder
	w := colorprofile.Writer{Forward: &sb, Profile: m.profile}
	w.WriteString(s)
	return sb.String()
}

// rowCount is how many terminal rows texts take at width.
func rowCount(texts []string, width int) int {
	n := 0
	for _, t := range texts {
		for _, l := range strings.Split(t, "\n") {
			n += printRows(l, width)
		}
	}
	return n
}

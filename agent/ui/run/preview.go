package run

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/charmbracelet/x/ansi"
)

// How much of a command's output `agent run` shows on stderr in text
// mode: the whole stream is the model's (and stream-json's), not the
// person's screen.
const (
	// LiveLines is how many of the last lines the live preview on a
	// terminal shows.
	LiveLines = 5
	// headLines and tailLines are the first and last lines shown when
	// stderr is a file or a pipe, with a count of those left out between.
	headLines, tailLines = 25, 25
	// outputLineBytes clips one line of output.
	outputLineBytes = 400
)

// outputView shows a running command's output on stderr, bounded. On a
// terminal (live) it is a preview of the last lines, redrawn as output
// comes; elsewhere the first lines are written as they come and the last
// ones when the command ends, with "… N lines …" between.
type outputView struct {
	w     io.Writer
	live  bool
	width int // the terminal's columns (live only)

	lines   int      // complete lines seen
	partial string   // the line not yet ended, clipped
	long    bool     // partial was clipped: the rest of the line is dropped
	tail    []string // the last lines, at most tailLines (LiveLines live)
	drawn   int      // live: lines of the preview now on the screen
}

// add takes output as it comes.
func (v *outputView) add(text string) {
	for text != "" {
		line, rest, ended := strings.Cut(text, "\n")
		text = rest
		if !v.long {
			v.partial += line
			if len(v.partial) > outputLineBytes {
				v.partial, v.long = termtext.Clip(v.partial, outputLineBytes), true
			}
		}
		if !ended {
			break
		}
		v.addLine(v.partial)
		v.partial, v.long = "", false
	}
	if v.live {
		v.draw()
	}
}

func (v *outputView) addLine(line string) {
	v.lines++
	line = termtext.Escape(strings.TrimSuffix(line, "\r"))
	if !v.live && v.lines <= headLines {
		fmt.Fprintf(v.w, "  │ %s\n", line)
		return
	}
	keep := tailLines
	if v.live {
		keep = LiveLines
	}
	v.tail = append(v.tail, line)
	if len(v.tail) > keep {
		v.tail = v.tail[1:]
	}
}

// draw redraws the live preview: a count of the lines above it, then the
// last lines, each cut to the terminal's width so that none wraps.
func (v *outputView) draw() {
	var b strings.Builder
	if v.drawn > 0 {
		fmt.Fprintf(&b, "\r\x1b[%dA\x1b[J", v.drawn)
	}
	shown := v.tail
	if v.partial != "" {
		shown = append(shown[:len(shown):len(shown)], termtext.Escape(v.partial))
		if len(shown) > LiveLines {
			shown = shown[1:]
		}
	}
	v.drawn = 0
	total := v.lines
	if v.partial != "" {
		total++
	}
	if above := total - len(shown); above > 0 {
		b.WriteString(v.fit(fmt.Sprintf("  … %s above", plural(above, "line", "lines"))) + "\n")
		v.drawn++
	}
	for _, l := range shown {
		b.WriteString(v.fit("  │ "+l) + "\n")
		v.drawn++
	}
	io.WriteString(v.w, b.String())
}

// fit cuts a line to the terminal's width, less one column.
func (v *outputView) fit(s string) string {
	return ansi.TruncateWc(s, max(v.width-1, 10), "…")
}

// end shows what is left when the command is over: the line not ended,
// and, off a terminal, the count of lines left out and the last lines.
// The live preview stays on the screen as it is.
func (v *outputView) end() {
	if v.partial != "" {
		v.addLine(v.partial)
		v.partial = ""
		if v.live {
			v.draw()
		}
	}
	if !v.live && len(v.tail) > 0 {
		if skipped := v.lines - headLines - len(v.tail); skipped > 0 {
			fmt.Fprintf(v.w, "  … %s …\n", plural(skipped, "line", "lines"))
		}
		for _, l := range v.tail {
			fmt.Fprintf(v.w, "  │ %s\n", l)
		}
	}
}

package conversation

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// WithPiped is prompt followed by piped, text piped in beside it, as the
// conversation's next message: cut to what the model's context window
// leaves room for (cut counts the bytes already left out), in a fenced
// block, with a note of what was cut. note says the same to the person;
// "" when nothing was cut.
func (c *Conversation) WithPiped(prompt, piped string, cut int64) (message, note string) {
	piped, cut = fitPiped(piped, cut, c.ReadBudget()-len(prompt))
	if cut > 0 {
		note = cutNote(len(piped), cut)
	}
	return withPiped(prompt, piped, cut), note
}

// withPiped is the prompt followed by the piped text in a fenced block
// (a fence longer than any run of backticks in the text), and a note
// when the text was cut.
func withPiped(prompt, piped string, cut int64) string {
	if strings.TrimSpace(piped) == "" {
		return prompt
	}
	fence := "```"
	for strings.Contains(piped, fence) {
		fence += "`"
	}
	var b strings.Builder
	b.WriteString(prompt)
	b.WriteString("\n\n" + fence + "\n")
	b.WriteString(strings.TrimRight(piped, "\n"))
	b.WriteString("\n" + fence + "\n")
	if cut > 0 {
		fmt.Fprintf(&b, "\n%s\n", cutNote(len(piped), cut))
	}
	return b.String()
}

// fitPiped cuts piped text to room bytes (room <= 0: the window is not
// known, keep it all) at a line end where one is near, so that it leaves
// the model's context window room for the work. cut counts what was left
// out, including what readPiped already left.
func fitPiped(piped string, cut int64, room int) (string, int64) {
	if room <= 0 || len(piped) <= room {
		return piped, cut
	}
	keep := room
	for keep > 0 && !utf8.RuneStart(piped[keep]) {
		keep--
	}
	if nl := strings.LastIndexByte(piped[:keep], '\n'); nl >= keep*3/4 {
		keep = nl + 1
	}
	return piped[:keep], cut + int64(len(piped)-keep)
}

// cutNote says how much of the piped text was dropped.
func cutNote(kept int, cut int64) string {
	return fmt.Sprintf("(the piped input was cut: the first %s were kept, %s more were not sent)", humanBytes(int64(kept)), humanBytes(cut))
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

package lsp

import (
	"fmt"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
)

// Text is the diagnostics: section a check adds to a tool's response:
// the changed files' errors (and warnings when asked), ten at most, each
// with its line, a count of the errors elsewhere, and the note.
//
//	diagnostics: 2 errors
//	main.go:5:2: error: undefined: greet (compiler)
//	main.go:9:1: error: missing return (compiler)
//	and 1 error in other files
func Text(d *tools.Diagnostics) string {
	var b strings.Builder
	b.WriteString("diagnostics:")
	if s := d.Summary(); s != "" {
		if d.Elsewhere > 0 { // said on a line of its own below
			s = strings.TrimSuffix(s, fmt.Sprintf(" (%d elsewhere)", d.Elsewhere))
		}
		fmt.Fprintf(&b, " %s in %s", s, strings.Join(d.Files, ", "))
	}
	b.WriteString("\n")
	for _, it := range d.Items {
		line := it.String()
		if it.Source != "" {
			line += " (" + it.Source + ")"
		}
		b.WriteString(line + "\n")
	}
	if more := d.Errors + d.Warnings - len(d.Items); more > 0 {
		fmt.Fprintf(&b, "and %d more in these files\n", more)
	}
	if d.Elsewhere > 0 {
		fmt.Fprintf(&b, "and %s in other files\n", count(d.Elsewhere, "error", "errors"))
	}
	if d.Note != "" {
		b.WriteString("note: " + d.Note + "\n")
	}
	return b.String()
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// oneLine is what a server wrote, on one line and at most max bytes:
// its messages go to the model and to a person's terminal.
func oneLine(s string, max int) string {
	return termtext.Clip(termtext.OneLine(s), max)
}

// lastLine is the last line of text that says something.
func lastLine(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	return oneLine(lines[len(lines)-1], 200)
}

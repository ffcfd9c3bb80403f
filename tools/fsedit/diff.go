package fsedit

import (
	"fmt"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
	udiff "github.com/aymanbagabas/go-udiff"
)

// maxDiffLines bounds the diff a write returns: enough to confirm the
// change, short enough not to flood the conversation.
const maxDiffLines = 60

// maxDiffLineLen bounds one line of a diff.
const maxDiffLineLen = 200

// shortDiff returns a unified diff of old and new (both with \n breaks),
// cut to maxDiffLines.
func shortDiff(rel, old, new string) string {
	if old == new {
		return ""
	}
	d := udiff.Unified("a/"+rel, "b/"+rel, old, new)
	return truncateDiff(d)
}

func truncateDiff(d string) string {
	lines := strings.SplitAfter(d, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var b strings.Builder
	for i, l := range lines {
		if i == maxDiffLines {
			fmt.Fprintf(&b, "... (%d more diff lines)\n", len(lines)-i)
			break
		}
		b.WriteString(clip(l))
	}
	return b.String()
}

// clip shortens one diff line, keeping its break, and makes it valid UTF-8.
func clip(l string) string {
	body, nl := strings.CutSuffix(l, "\n")
	body = strings.ToValidUTF8(body, "\uFFFD")
	if len(body) > maxDiffLineLen {
		body = termtext.RunePrefix(body, maxDiffLineLen) + " ..."
	}
	if nl {
		return body + "\n"
	}
	return body
}

// hunk is the diff of one partial write: context before, the lines
// removed and added, context after. removedCount may exceed len(removed)
// when the removed lines were too many to keep.
type hunk struct {
	start        int // first old line of the context
	before       []string
	removed      []string
	removedCount int
	added        []string
	after        []string
}

// render writes the hunk as a unified diff, cut to maxDiffLines.
func (h hunk) render(rel string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", rel, rel)
	oldN := len(h.before) + h.removedCount + len(h.after)
	newN := len(h.before) + len(h.added) + len(h.after)
	fmt.Fprintf(&b, "@@ -%s +%s @@\n", span(h.start, oldN), span(h.start, newN))
	for _, l := range h.before {
		b.WriteString(" " + l + "\n")
	}
	for _, l := range h.removed {
		b.WriteString("-" + l + "\n")
	}
	if more := h.removedCount - len(h.removed); more > 0 {
		fmt.Fprintf(&b, "-... (%d more removed lines)\n", more)
	}
	for _, l := range h.added {
		b.WriteString("+" + l + "\n")
	}
	for _, l := range h.after {
		b.WriteString(" " + l + "\n")
	}
	return truncateDiff(b.String())
}

// span is a unified-diff range: "start,count", with the start of an empty
// range being the line before it.
func span(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

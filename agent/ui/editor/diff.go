package editor

import (
	"strings"

	acp "github.com/coder/acp-go-sdk"
)

// diffContents turns a unified diff (a tool's preview) into the
// protocol's diff contents: one per hunk, its old and new lines with
// their context, for the file the diff names (made absolute by abs). A
// new file's hunk has no old text.
func diffContents(unified string, abs func(string) string) []acp.ToolCallContent {
	var (
		out      []acp.ToolCallContent
		path     string
		old, new strings.Builder
		inHunk   bool
		created  bool
	)
	flush := func() {
		if inHunk && path != "" {
			if created {
				out = append(out, acp.ToolDiffContent(abs(path), new.String()))
			} else {
				out = append(out, acp.ToolDiffContent(abs(path), new.String(), old.String()))
			}
		}
		old.Reset()
		new.Reset()
		inHunk = false
	}
	for _, line := range strings.SplitAfter(unified, "\n") {
		switch {
		case strings.HasPrefix(line, "--- "):
			flush()
			created = strings.TrimSpace(line) == "--- /dev/null"
		case strings.HasPrefix(line, "+++ "):
			path = strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(line, "+++ ")), "b/")
		case strings.HasPrefix(line, "@@"):
			flush()
			inHunk = true
		case !inHunk || strings.HasPrefix(line, `\`):
		case strings.HasPrefix(line, "-"):
			old.WriteString(line[1:])
		case strings.HasPrefix(line, "+"):
			new.WriteString(line[1:])
		case strings.HasPrefix(line, " "):
			old.WriteString(line[1:])
			new.WriteString(line[1:])
		}
	}
	flush()
	return out
}

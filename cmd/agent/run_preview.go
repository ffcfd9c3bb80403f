package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/agentcli/agent/agent"
)

// previewLines bounds the preview shown before asking about a write.
const previewLines = 20

// writePreview shows the user what a write_file call would do before they
// allow it: a diff against the file for a rewrite, the new lines for a
// create or partial write. It reads only regular files inside root; any
// other call, or anything it cannot read, gets no preview.
func writePreview(root string, req agent.ApprovalRequest) string {
	if req.Tool.Name != "write_file" {
		return ""
	}
	v := req.Input.Values
	op, _ := v["operation_type"].(string)
	rel, _ := v["file_path"].(string)
	content, _ := v["content"].(string)
	switch op {
	case "rewrite":
		old, ok := readInside(root, rel)
		if !ok {
			return ""
		}
		return clip(udiff.Unified("a/"+rel, "b/"+rel, old, content))
	case "partial":
		start, _ := v["start_line"].(int)
		where := fmt.Sprintf("at line %d", start)
		if end, ok := v["end_line"].(int); ok && end >= start {
			where = fmt.Sprintf("replacing lines %d-%d", start, end)
		}
		return where + ":\n" + clip(prefixLines(content, "+ "))
	case "create":
		return clip(prefixLines(content, "+ "))
	}
	return ""
}

// readInside reads rel under root when it is a regular file that stays
// inside root (the preview never follows a path out of the project).
func readInside(root, rel string) (string, bool) {
	p := filepath.Join(root, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", false
	}
	if r, err := filepath.Rel(root, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	info, err := os.Stat(real)
	if err != nil || !info.Mode().IsRegular() || info.Size() > 1<<20 {
		return "", false
	}
	b, err := os.ReadFile(real)
	return string(b), err == nil
}

func prefixLines(s, prefix string) string {
	if s == "" {
		return "(no lines)\n"
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(prefix)
		b.WriteString(strings.TrimRight(l, "\r\n"))
		b.WriteByte('\n')
	}
	return b.String()
}

// clip keeps the first previewLines lines and says how many were left out.
func clip(s string) string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) <= previewLines {
		return s
	}
	return strings.Join(lines[:previewLines], "") + fmt.Sprintf("  … %d more lines\n", len(lines)-previewLines)
}

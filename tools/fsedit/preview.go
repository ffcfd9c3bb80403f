package fsedit

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
	udiff "github.com/aymanbagabas/go-udiff"
)

// writeTool is write_file: the typed tool plus its Preview.
type writeTool struct {
	tools.Tool
	s *Session
}

// Preview says what a write_file call would change: a summary and the
// full unified diff against the file as it is now. It runs every check
// the write runs (path, type, staleness, range, match, placeholder,
// read-before-write) through the same code, stopping where the write
// would start to change things, so a write that would fail returns its
// error Result and nobody is asked. It changes nothing on disk and
// nothing the session knows.
func (w writeTool) Preview(ctx context.Context, in tools.Input) (tools.Preview, *tools.Result, error) {
	a := writeArgs(in)
	dry := &dryRun{}
	res, err := w.s.dryWrite(ctx, a, dry)
	if err != nil {
		return tools.Preview{}, nil, err
	}
	if res.IsError() {
		return tools.Preview{}, &res, nil
	}
	name := strings.TrimSpace(a.FilePath)
	// The path is a fact of its own, not only in the title, which a
	// person may read as a heading or see shortened.
	p := tools.Preview{Summary: previewSummary(a), Lines: []string{"file: " + name}}
	switch {
	case dry.tooBig || dry.oldTooBig:
		p.Lines = append(p.Lines, fmt.Sprintf("no diff: the file is over %s", sandbox.HumanSize(diffKeep)))
	default:
		p.Diff = udiff.Unified("a/"+name, "b/"+name, diffText(dry.old, dry.enc), diffText(dry.new, dry.enc))
		if p.Diff == "" {
			p.Lines = append(p.Lines, "no change: the new content is the same as the old")
		}
	}
	return p, nil, nil
}

// dryWrite is writeFile without effects, with file system refusals
// turned into Results as write does.
func (s *Session) dryWrite(ctx context.Context, a WriteArgs, dry *dryRun) (tools.Result, error) {
	return sandbox.Guarded(func(ctx context.Context, a WriteArgs) (tools.Result, error) {
		res, err := s.writeFile(ctx, a, dry)
		var rf *sandbox.Refusal
		if errors.As(err, &rf) {
			return rf.Result(), nil
		}
		return res, err
	}, func(a WriteArgs) string { return a.FilePath })(ctx, a)
}

// diffText is content as a diff shows it: no byte-order mark, \n breaks,
// invalid bytes as U+FFFD.
func diffText(b []byte, enc string) string {
	if enc != "" && len(b) >= 2 {
		if text, ok := decodeUTF16(b, enc); ok {
			b = []byte(text)
		}
	}
	s := strings.TrimPrefix(string(b), sandbox.UTF8BOM)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

// previewSummary names the write: "rewrite README.md", "replace lines 2-9
// of a.go", "replace in a.go".
func previewSummary(a WriteArgs) string {
	name := strings.TrimSpace(a.FilePath)
	switch a.OperationType {
	case "partial":
		start, end := 0, -1
		if a.StartLine != nil {
			start = *a.StartLine
			end = start - 1
		}
		if a.EndLine != nil {
			end = *a.EndLine
		}
		switch {
		case end < start && a.Content == "":
			return "change nothing in " + name
		case end < start:
			return fmt.Sprintf("insert before line %d of %s", start, name)
		case a.Content == "":
			return fmt.Sprintf("delete lines %d-%d of %s", start, end, name)
		}
		return fmt.Sprintf("replace lines %d-%d of %s", start, end, name)
	case "replace":
		if a.ReplaceAll {
			return "replace all in " + name
		}
		return "replace in " + name
	}
	return a.OperationType + " " + name
}

// writeArgs reads a validated call into WriteArgs, as tools.New does for
// Execute.
func writeArgs(in tools.Input) WriteArgs {
	str := func(k string) string { s, _ := in.Values[k].(string); return s }
	num := func(k string) *int {
		if v, ok := in.Values[k].(int); ok {
			return &v
		}
		return nil
	}
	a := WriteArgs{OperationType: str("operation_type"), FilePath: str("file_path"), Content: str("content"), StartLine: num("start_line"), EndLine: num("end_line")}
	if v, ok := in.Values["old_text"].(string); ok {
		a.OldText = &v
	}
	a.ReplaceAll, _ = in.Values["replace_all"].(bool)
	if v, ok := in.Values["create_backup"].(bool); ok {
		a.CreateBackup = &v
	}
	return a
}

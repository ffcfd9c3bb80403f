package fsedit

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

//go:embed read_file.md
var readDesc string

// ReadArgs are read_file's parameters.
type ReadArgs struct {
	FilePath    string `json:"file_path" path:"true" jsonschema:"path relative to the project root"`
	StartLine   *int   `json:"start_line,omitempty" jsonschema:"first line to return, 1-based"`
	EndLine     *int   `json:"end_line,omitempty" jsonschema:"last line to return, inclusive"`
	LineNumbers bool   `json:"line_numbers,omitempty" jsonschema:"prefix each line with its number"`
}

// ReadTool returns read_file.
func (s *Session) ReadTool() tools.Tool {
	return tools.New("read_file", readDesc, sandbox.Guarded(s.read, func(a ReadArgs) string { return a.FilePath }))
}

// maxBudgetLines is the most lines a whole read cut by the read budget
// returns, however short they are.
const maxBudgetLines = 2000

// readBudget is Options.ReadBudget now; 0 for none.
func (s *Session) readBudget() int64 {
	if f := s.root.Options().ReadBudget; f != nil {
		return int64(max(f(), 0))
	}
	return 0
}

// readBufSize is the read buffer: lines longer than this arrive in pieces.
const readBufSize = 64 << 10

func (s *Session) read(ctx context.Context, a ReadArgs) (tools.Result, error) {
	t, rf, err := s.root.FileTargetFor(a.FilePath, true)
	if err != nil {
		return tools.Result{}, err
	}
	if rf != nil {
		return rf.Result(), nil
	}
	if t.Info == nil {
		return tools.Errorf(tools.CodeFileNotFound, "file not found: %s; list_directory or search_files show what exists", a.FilePath), nil
	}
	start, end := 1, 0 // end 0: to the end of the file
	ranged := a.StartLine != nil || a.EndLine != nil
	if a.StartLine != nil {
		start = *a.StartLine
	}
	if a.EndLine != nil {
		end = *a.EndLine
	}
	if start < 1 || (a.EndLine != nil && end < start) {
		return tools.Errorf(tools.CodeInvalidRange, "invalid range %d-%d: lines are numbered from 1 and end_line must not be before start_line", start, end), nil
	}
	limit := s.root.Options().MaxReadBytes

	f, fi, err := s.root.OpenRead(t)
	if err != nil {
		if rf, ok := sandbox.AsRefusal(t, err); ok {
			return rf.Result(), nil
		}
		return tools.Result{}, err
	}
	defer f.Close()
	if sandbox.IsForPerson(ctx) {
		if err := sandbox.LinkedRefusal(fi); err != nil {
			// For the person, who knows which file they named.
			return tools.Errorf(sandbox.RefusalCode(err), "%v", err), nil
		}
	}
	if mime := sniffImage(f); mime != "" || imageName(t) {
		return s.readImage(t, f, fi, mime)
	}
	// With a read budget, a whole read too large for it returns the first
	// lines that fit instead (cut says where it stopped).
	budget := int64(0)
	if !ranged {
		budget = s.readBudget()
	}
	if budget > 0 && fi.Size() <= budget {
		budget = 0
	}
	if !ranged && budget == 0 && fi.Size() > limit {
		return s.tooLarge(ctx, t, f, fi.Size())
	}
	budget = min(budget, limit)
	// A read cut by the budget returns lines 1..cut (stopped).
	var (
		stopped, lineStart = false, true
		cut, lineOff       int
	)

	fp := sandbox.NewFingerprint(f)
	fp.SHA = sandbox.NewAsyncHash()
	defer fp.SHA.Sum()
	br := bufio.NewReaderSize(fp, readBufSize)
	enc := fileUTF16(f)
	if enc != "" && fi.Size() > replaceKeep {
		return tools.Errorf(tools.CodeFileTooLarge, "%s is a UTF-16 file of %s; the tools read UTF-16 files up to %s", a.FilePath, sandbox.HumanSize(fi.Size()), sandbox.HumanSize(replaceKeep)), nil
	}
	if enc != "" {
		// The fingerprint is of the bytes on disk; the lines are of the text.
		raw, err := io.ReadAll(fp)
		if err != nil {
			return tools.Result{}, fmt.Errorf("read %s: %w", t.Rel, err)
		}
		text, ok := decodeUTF16(raw, enc)
		if !ok {
			return tools.Errorf(tools.CodeUnsupportedType, "%s starts with a UTF-16 mark but is not valid UTF-16; read_file only returns text", a.FilePath), nil
		}
		br = bufio.NewReaderSize(strings.NewReader(text), readBufSize)
	}
	var (
		c        lineCounter
		out      bytes.Buffer
		overflow bool
	)
	bom := false
	for {
		piece, err := br.ReadSlice('\n')
		if c.st.size == 0 && strings.HasPrefix(string(piece[:min(len(piece), 3)]), sandbox.UTF8BOM) {
			bom = true
		}
		line := c.st.lines + 1
		if budget > 0 && !stopped && len(piece) > 0 {
			if lineStart {
				lineOff = out.Len()
			}
			if (lineStart && line > maxBudgetLines) || int64(out.Len()+len(piece)) > budget {
				// This line does not fit: the read ends before it.
				stopped, cut = true, line-1
				out.Truncate(lineOff)
			}
		}
		if len(piece) > 0 && line >= start && (end == 0 || line <= end) && !overflow && !stopped {
			out.Write(piece)
			overflow = int64(out.Len()) > limit
		}
		c.add(piece)
		if len(piece) > 0 {
			lineStart = piece[len(piece)-1] == '\n'
		}
		if c.st.binary {
			return tools.Errorf(tools.CodeUnsupportedType, "%s looks binary (it holds NUL bytes); read_file only returns text", a.FilePath), nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return tools.Result{}, fmt.Errorf("read %s: %w", t.Rel, err)
		}
		if line&0xffff == 0 && ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
	}
	st := c.finish()
	if ranged && start > st.lines && !(start == 1 && st.lines == 0) {
		return tools.Errorf(tools.CodeInvalidRange, "start_line %d is past the end of %s, which has %s", start, a.FilePath, sandbox.Plural(st.lines, "line", "lines")), nil
	}
	if stopped && cut == 0 {
		return tools.Errorf(tools.CodeFileTooLarge, "line 1 of %s alone is over what fits in the conversation now (%s); search_files finds what you need in it", a.FilePath, sandbox.HumanSize(budget)), nil
	}
	if stopped {
		end = cut
	}
	if end == 0 || end > st.lines {
		end = st.lines
	}
	if overflow {
		return tools.Errorf(tools.CodeFileTooLarge, "lines %d-%d of %s are over the %s read limit; ask for fewer lines (about %d fit)", start, end, a.FilePath, sandbox.HumanSize(limit), linesThatFit(st, limit)), nil
	}
	sum := fp.SHA.Sum()
	// Ranges of an unchanged file add up, so a file over the read limit
	// can still be rewritten once every line was read.
	seen := lineSpan{from: start, to: end, call: callID(ctx)}
	if st.lines == 0 {
		seen = lineSpan{from: 1, to: 0, call: seen.call}
	}
	known := []lineSpan{seen}
	if prev, ok := s.recall(t.Rel); ok && prev.sum == sum && prev.matches(fi) {
		known = append(prev.known, seen)
	}
	s.remember(t.Rel, fileState{size: fi.Size(), mtime: fi.ModTime(), sum: sum, crc: fp.CRC, lines: st.lines, cps: fp.SHA.CPs, known: known})

	text := out.String()
	if bom && start == 1 {
		text = strings.TrimPrefix(text, sandbox.UTF8BOM)
	}
	if st.ending != endingLF {
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	encoding := "utf-8"
	if enc != "" {
		encoding, bom = enc, true
	}
	msg := fmt.Sprintf("%s: lines %d-%d of %d", t.Rel, min(start, end), end, st.lines)
	if stopped {
		msg += fmt.Sprintf("; the rest does not fit in the conversation now: continue with start_line %d", cut+1)
	}
	if st.badCount > 0 {
		encoding = "utf-8 (invalid bytes)"
		text = strings.ToValidUTF8(text, "\uFFFD")
		msg += fmt.Sprintf("; %s (first: %s) hold bytes that are not valid UTF-8, shown as \uFFFD: change other lines with partial writes, which keep those bytes", sandbox.Plural(st.badCount, "line", "lines"), joinInts(st.badLines))
	}
	if a.LineNumbers {
		text = numbered(text, start)
	}
	meta := []tools.Attr{
		{Name: "size", Value: fmt.Sprint(fi.Size())},
		{Name: "lines", Value: sandbox.Itoa(st.lines)},
		{Name: "encoding", Value: encoding},
		{Name: "line_ending", Value: st.ending},
	}
	if st.lines > 0 {
		meta = append(meta, tools.Attr{Name: "range", Value: fmt.Sprintf("%d-%d", start, end)})
	}
	if st.size > 0 && !st.finalNewline {
		meta = append(meta, tools.Attr{Name: "final_newline", Value: "no"})
	}
	if stopped {
		meta = append(meta, tools.Attr{Name: "next_line", Value: sandbox.Itoa(cut + 1)})
	}
	if bom {
		// Shown without it; every write keeps it.
		meta = append(meta, tools.Attr{Name: "bom", Value: "yes"})
	}
	return tools.Result{Message: msg, Metadata: meta, Content: text}, nil
}

// tooLarge answers FILE_TOO_LARGE for a whole-file read, counting the
// lines so the model can pick a range that fits.
func (s *Session) tooLarge(ctx context.Context, t sandbox.Target, r io.Reader, size int64) (tools.Result, error) {
	var c lineCounter
	br := bufio.NewReaderSize(r, readBufSize)
	for n := 0; ; n++ {
		piece, err := br.ReadSlice('\n')
		c.add(piece)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			break
		}
		if n&0xffff == 0 && ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
	}
	st := c.finish()
	limit := s.root.Options().MaxReadBytes
	return tools.Errorf(tools.CodeFileTooLarge, "%s is %s with %d lines, over the %s read limit; read a range with start_line and end_line (about %d lines fit)", t.Asked, sandbox.HumanSize(size), st.lines, sandbox.HumanSize(limit), linesThatFit(st, limit)), nil
}

// linesThatFit estimates how many lines of an average length fit in limit.
func linesThatFit(st textStats, limit int64) int64 {
	if st.lines == 0 || st.size == 0 {
		return 0
	}
	n := limit * int64(st.lines) / st.size
	return max(1, n*9/10)
}

// numbered prefixes each line of text with its number, right-aligned, as
// "  12| text", so the model can plan a partial write.
func numbered(text string, first int) string {
	if text == "" {
		return ""
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	width := len(sandbox.Itoa(first + len(lines) - 1))
	var b strings.Builder
	b.Grow(len(text) + len(lines)*(width+2))
	for i, l := range lines {
		fmt.Fprintf(&b, "%*d| %s", width, first+i, l)
	}
	return b.String()
}

func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = sandbox.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

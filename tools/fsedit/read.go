package fsedit

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
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
	return tools.New("read_file", readDesc, sandbox.Guarded(s.read, func(a ReadArgs) string { return a.FilePath }), tools.Acts(tools.ActionRead))
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

// read is read_file: the file checked and opened, its lines scanned
// (scanLines), the read remembered, and the result put in words.
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
	w, ranged, bad := readWindow(a)
	if bad != nil {
		return *bad, nil
	}
	w.limit = s.root.Options().MaxReadBytes

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
	// An editor's text, unsaved changes included, stands for the file's.
	var src textSource = f
	if text, ok := s.editorText(ctx, t); ok {
		src, fi = strings.NewReader(text), textInfo{FileInfo: fi, size: int64(len(text))}
	}
	// With a read budget, a whole read too large for it returns the first
	// lines that fit instead (cut says where it stopped).
	if !ranged {
		w.budget = s.readBudget()
	}
	if w.budget > 0 && fi.Size() <= w.budget {
		w.budget = 0
	}
	if !ranged && w.budget == 0 && fi.Size() > w.limit {
		return s.tooLarge(ctx, t, src, fi.Size())
	}
	w.budget = min(w.budget, w.limit)

	fp := sandbox.NewFingerprint(src)
	fp.SHA = sandbox.NewAsyncHash()
	defer fp.SHA.Sum()
	br, enc, res, err := textReader(fp, src, fi.Size(), t.Rel, a.FilePath)
	if res != nil || err != nil {
		return derefResult(res), err
	}
	sc, err := scanLines(ctx, br, w, t.Rel)
	if err != nil {
		return tools.Result{}, err
	}
	if sc.binary {
		return tools.Errorf(tools.CodeUnsupportedType, "%s looks binary (it holds NUL bytes); read_file only returns text", a.FilePath), nil
	}
	end, res := sc.lastLine(w, ranged, a.FilePath)
	if res != nil {
		return *res, nil
	}
	s.rememberRead(ctx, t, fi, fp, sc.st.lines, w.start, end)
	return readResult(t.Rel, fi.Size(), a, sc, enc, w.start, end), nil
}

// textSource is where a read takes the text: the file, or an editor's
// text of it.
type textSource interface {
	io.Reader
	io.ReaderAt
}

// lineWindow is what a read keeps of a file's lines: start to end (end
// 0: to the end of the file), at most limit bytes, and with a budget (0:
// none) only the first lines that fit in it.
type lineWindow struct {
	start, end    int
	limit, budget int64
}

// readWindow is the range a asks for; a result when it is no range.
func readWindow(a ReadArgs) (w lineWindow, ranged bool, bad *tools.Result) {
	w.start = 1
	ranged = a.StartLine != nil || a.EndLine != nil
	if a.StartLine != nil {
		w.start = *a.StartLine
	}
	if a.EndLine != nil {
		w.end = *a.EndLine
	}
	if w.start < 1 || (a.EndLine != nil && w.end < w.start) {
		res := tools.Errorf(tools.CodeInvalidRange, "invalid range %d-%d: lines are numbered from 1 and end_line must not be before start_line", w.start, w.end)
		return w, ranged, &res
	}
	return w, ranged, nil
}

// textReader reads the file's text through fp (whose fingerprint is of
// the bytes on disk): a UTF-16 file (enc says which) decoded whole, up to
// replaceKeep; a result when it cannot be read as text.
func textReader(fp io.Reader, f io.ReaderAt, size int64, rel, asked string) (br *bufio.Reader, enc string, res *tools.Result, err error) {
	br = bufio.NewReaderSize(fp, readBufSize)
	enc = fileUTF16(f)
	if enc == "" {
		return br, "", nil, nil
	}
	if size > replaceKeep {
		r := tools.Errorf(tools.CodeFileTooLarge, "%s is a UTF-16 file of %s; the tools read UTF-16 files up to %s", asked, sandbox.HumanSize(size), sandbox.HumanSize(replaceKeep))
		return nil, enc, &r, nil
	}
	// The fingerprint is of the bytes on disk; the lines are of the text.
	raw, err := io.ReadAll(fp)
	if err != nil {
		return nil, enc, nil, fmt.Errorf("read %s: %w", rel, err)
	}
	text, ok := decodeUTF16(raw, enc)
	if !ok {
		r := tools.Errorf(tools.CodeUnsupportedType, "%s starts with a UTF-16 mark but is not valid UTF-16; read_file only returns text", asked)
		return nil, enc, &r, nil
	}
	return bufio.NewReaderSize(strings.NewReader(text), readBufSize), enc, nil, nil
}

// lineScan is what scanLines found.
type lineScan struct {
	out      bytes.Buffer // the lines kept
	st       textStats
	bom      bool // a UTF-8 byte-order mark starts the file
	stopped  bool // the budget ended the read after line cut
	cut      int
	overflow bool // the lines asked for are over the limit
	binary   bool // a NUL byte: not text (the scan stopped there)
}

// scanLines reads every line of br, counting them, and keeps those of w.
func scanLines(ctx context.Context, br *bufio.Reader, w lineWindow, rel string) (*lineScan, error) {
	sc := &lineScan{}
	var c lineCounter
	lineStart, lineOff := true, 0
	for {
		piece, err := br.ReadSlice('\n')
		if c.st.size == 0 && strings.HasPrefix(string(piece[:min(len(piece), 3)]), sandbox.UTF8BOM) {
			sc.bom = true
		}
		line := c.st.lines + 1
		if w.budget > 0 && !sc.stopped && len(piece) > 0 {
			if lineStart {
				lineOff = sc.out.Len()
			}
			if (lineStart && line > maxBudgetLines) || int64(sc.out.Len()+len(piece)) > w.budget {
				// This line does not fit: the read ends before it.
				sc.stopped, sc.cut = true, line-1
				sc.out.Truncate(lineOff)
			}
		}
		if len(piece) > 0 && line >= w.start && (w.end == 0 || line <= w.end) && !sc.overflow && !sc.stopped {
			sc.out.Write(piece)
			sc.overflow = int64(sc.out.Len()) > w.limit
		}
		c.add(piece)
		if len(piece) > 0 {
			lineStart = piece[len(piece)-1] == '\n'
		}
		if c.st.binary {
			sc.binary = true
			return sc, nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", rel, err)
		}
		if line&0xffff == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	sc.st = c.finish()
	return sc, nil
}

// lastLine is the last line the read returns; a result when the lines
// asked for are not there or do not fit.
func (sc *lineScan) lastLine(w lineWindow, ranged bool, asked string) (int, *tools.Result) {
	st, end := sc.st, w.end
	fail := func(code, format string, args ...any) (int, *tools.Result) {
		res := tools.Errorf(code, format, args...)
		return 0, &res
	}
	if ranged && w.start > st.lines && !(w.start == 1 && st.lines == 0) {
		return fail(tools.CodeInvalidRange, "start_line %d is past the end of %s, which has %s", w.start, asked, sandbox.Plural(st.lines, "line", "lines"))
	}
	if sc.stopped && sc.cut == 0 {
		return fail(tools.CodeFileTooLarge, "line 1 of %s alone is over what fits in the conversation now (%s); search_files finds what you need in it", asked, sandbox.HumanSize(w.budget))
	}
	if sc.stopped {
		end = sc.cut
	}
	if end == 0 || end > st.lines {
		end = st.lines
	}
	if sc.overflow {
		return fail(tools.CodeFileTooLarge, "lines %d-%d of %s are over the %s read limit; ask for fewer lines (about %d fit)", w.start, end, asked, sandbox.HumanSize(w.limit), linesThatFit(st, w.limit))
	}
	return end, nil
}

// rememberRead records that the model saw lines start to end of the file
// (of lines lines) as fp read it. Ranges of an unchanged file add up, so
// a file over the read limit can still be rewritten once every line was
// read.
func (s *Session) rememberRead(ctx context.Context, t sandbox.Target, fi fs.FileInfo, fp *sandbox.Fingerprint, lines, start, end int) {
	sum := fp.SHA.Sum()
	seen := lineSpan{from: start, to: end, call: callID(ctx)}
	if lines == 0 {
		seen = lineSpan{from: 1, to: 0, call: seen.call}
	}
	known := []lineSpan{seen}
	if prev, ok := s.recall(t.Rel); ok && prev.sum == sum && prev.matches(fi) {
		known = append(prev.known, seen)
	}
	s.remember(t.Rel, fileState{size: fi.Size(), mtime: fi.ModTime(), sum: sum, crc: fp.CRC, lines: lines, cps: fp.SHA.CPs, known: known})
}

// readResult puts lines start to end of the scan in words, with the
// file's metadata: its size, lines, encoding (enc for UTF-16), line
// endings, and where to continue a read the budget cut.
func readResult(rel string, size int64, a ReadArgs, sc *lineScan, enc string, start, end int) tools.Result {
	st, bom := sc.st, sc.bom
	text := sc.out.String()
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
	msg := fmt.Sprintf("%s: lines %d-%d of %d", rel, min(start, end), end, st.lines)
	if sc.stopped {
		msg += fmt.Sprintf("; the rest does not fit in the conversation now: continue with start_line %d", sc.cut+1)
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
		{Name: "size", Value: fmt.Sprint(size)},
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
	if sc.stopped {
		meta = append(meta, tools.Attr{Name: "next_line", Value: sandbox.Itoa(sc.cut + 1)})
	}
	if bom {
		// Shown without it; every write keeps it.
		meta = append(meta, tools.Attr{Name: "bom", Value: "yes"})
	}
	return tools.Result{Message: msg, Metadata: meta, Content: text}
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

package fsedit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
	"github.com/agentcli/agent/tools/sandbox/backup"
)

// maxCapture bounds the removed lines a partial write keeps for its diff
// and checks; the rest are only counted.
const maxCapture = 2000

// contextLines is the diff context of a partial write.
const contextLines = 3

// spliceBufSize is the read buffer of a partial write: large, since most
// of a big file is copied in bulk through it.
const spliceBufSize = 256 << 10

// splicer streams the old file into the new one, line by line, putting
// the new lines in place of the range. Memory stays flat whatever the
// file's size: only the removed lines (up to maxCapture) and a few lines
// of context are kept.
type splicer struct {
	out     *sandbox.Replacement
	style   string // the break new lines get
	open    bool   // a line was written whose break is not yet written
	pending string // that line's own break; "" means style

	start, end int
	h          hunk
	badLine    int // first removed line with invalid UTF-8
	u8         utf8Stream
	lineBad    bool
	bodyCap    []byte // the line being captured
	inserted   bool   // the new lines are written
}

// beginLine writes the break owed to the previous line, if any. Breaks are
// written late so that a file without a final newline keeps that state.
func (sp *splicer) beginLine() {
	if sp.open {
		if sp.pending != "" {
			sp.out.WriteString(sp.pending)
		} else {
			sp.out.WriteString(sp.style)
		}
	}
	sp.open = true
	sp.pending = ""
}

func (sp *splicer) insert(lines []string) {
	for _, l := range lines {
		sp.beginLine()
		sp.out.WriteString(l)
	}
}

// partial replaces lines start..end of an existing file by streaming it:
// the range checked against what the model read (partialRange), the old
// file spliced into the replacement (splice), what the splice saw
// checked (checkSplice), and the replacement committed.
func (s *Session) partial(ctx context.Context, e *edit) (tools.Result, error) {
	start, end, res := partialRange(e)
	if res != nil {
		return *res, nil
	}
	if from, delta, moved := s.movedBy(e.info.ChangeSet, e.t.Rel, max(start, end)); moved {
		return tools.Errorf(tools.CodeFileStale, "%s", staleShift(e.t.Asked, from, delta)), nil
	}
	added := splitContent(e.args.Content)
	e.known = shiftSpans(e.seen.known, start, end, len(added), e.info.CallID)

	rep, err := s.newReplacement(e, sandbox.KeptMode(e.fi))
	if err != nil {
		return tools.Result{}, sandbox.DescribeWriteErr(e.t.Rel, err)
	}
	rep.Watch(ctx)
	defer rep.Abort()
	rep.PauseHash()
	// The old content is checked against the read with CRC-32C (with its
	// size and mtime): SHA-256 would double the time of a write to a huge
	// file. Its SHA-256 for the manifest is the one taken at the read.
	fp := sandbox.NewFingerprint(e.src)
	br := bufio.NewReaderSize(fp, spliceBufSize)
	sp := &splicer{out: rep, style: firstBreak(br), start: start, end: end}
	sp.h.start = max(1, start-contextLines)
	size, err := sp.splice(ctx, e, br, added)
	if err != nil {
		return tools.Result{}, err
	}
	if res, err := checkSplice(e, fp, sp, size, added); res != nil || err != nil {
		return derefResult(res), err
	}
	return s.commitPartial(ctx, e, rep, sp, added)
}

// partialRange is the range e's partial write replaces (end = start-1
// inserts before start); a result when it is not in the file, or not
// read in its current state.
func partialRange(e *edit) (start, end int, res *tools.Result) {
	a, total := e.args, e.seen.lines
	fail := func(code, format string, args ...any) (int, int, *tools.Result) {
		r := tools.Errorf(code, format, args...)
		return 0, 0, &r
	}
	if a.StartLine == nil {
		return fail(tools.CodeInvalidRange, "partial needs start_line (and end_line to replace lines); %s has %s: start_line %d appends, start_line alone inserts before that line", e.t.Asked, sandbox.Plural(total, "line", "lines"), total+1)
	}
	start = *a.StartLine
	end = start - 1 // start_line alone inserts: the harmless reading
	if a.EndLine != nil {
		end = *a.EndLine
	}
	if start < 1 || start > total+1 || end < start-1 || end > total {
		return fail(tools.CodeInvalidRange, "start_line %d and end_line %d do not fit %s, which has %s; replace lines within 1-%d, use start_line %d to append, or end_line = start_line - 1 to insert before start_line", start, end, e.t.Asked, sandbox.Plural(total, "line", "lines"), total, total+1)
	}
	if !rangeSeen(e.seen.known, start, end, total) {
		return fail(tools.CodeFileStale, "you have not read the lines of %s that this partial write replaces (%s; you have seen %s in its current state); read them first with read_file start_line and end_line, then write", e.t.Asked, describeRange(start, end), describeSeen(e.seen.known))
	}
	return start, end, nil
}

// splice streams the old file from br into the replacement with added in
// place of the range, and returns the old file's size. The lines before
// the context are copied in bulk, untouched, their hash resumed from the
// read's last checkpoint before them; the rest goes through stream.
func (sp *splicer) splice(ctx context.Context, e *edit, br *bufio.Reader, added []string) (int64, error) {
	rep := sp.out
	var size int64
	if head, _ := br.Peek(len(sandbox.UTF8BOM)); string(head) == sandbox.UTF8BOM {
		// The byte-order mark is not part of line 1's text: it stays
		// when line 1 is replaced.
		rep.WriteString(sandbox.UTF8BOM)
		br.Discard(len(sandbox.UTF8BOM))
		size = int64(len(sandbox.UTF8BOM))
		if len(added) > 0 {
			added[0] = strings.TrimPrefix(added[0], sandbox.UTF8BOM)
		}
	}
	line, copied, last, err := copyLines(br, rep, sp.start-contextLines-1)
	size += copied
	if err != nil {
		return 0, sandbox.DescribeWriteErr(e.t.Rel, err)
	}
	// The copied prefix is the old one: its hash resumes from the read's
	// last checkpoint before it rather than starting over.
	cp := sandbox.LastBefore(e.seen.cps, size)
	if err := rep.ResumeHash(e.src, cp); err != nil {
		return 0, sandbox.DescribeWriteErr(e.t.Rel, err)
	}
	e.resumedAt = cp.Off
	n, lineStart, err := sp.stream(ctx, br, &line, &last, added, e.t.Rel)
	size += n
	if err != nil {
		return 0, err
	}
	if !lineStart && line >= sp.start && line <= sp.end {
		sp.endRemoved(line) // the last line, without a final newline
	}
	if !sp.inserted {
		sp.insert(added)
	}
	finalNewline := last == '\n'
	if size == 0 {
		finalNewline = strings.HasSuffix(e.args.Content, "\n")
	}
	if sp.open && finalNewline { // the range reached the end of the file
		sp.beginLine()
	}
	return size, nil
}

// stream goes through the old file from *line on, one line at a time:
// the range's lines removed and added written in their place, the
// context kept for the diff, and once past the context the rest copied
// in bulk. It returns the bytes read and whether the last ended a line.
func (sp *splicer) stream(ctx context.Context, br *bufio.Reader, line *int, last *byte, added []string, rel string) (size int64, lineStart bool, err error) {
	lineStart = true
	for {
		if lineStart && sp.inserted && *line > sp.end+contextLines {
			if sp.open {
				sp.beginLine() // the break owed to the last line written
				sp.open = false
			}
			n, err := br.WriteTo(sp.out)
			size += n
			if err != nil {
				return size, lineStart, sandbox.DescribeWriteErr(rel, err)
			}
			return size, lineStart, nil
		}
		piece, err := br.ReadSlice('\n')
		if len(piece) > 0 {
			if lineStart && *line == sp.start && !sp.inserted {
				sp.insert(added)
				sp.inserted = true
			}
			complete := piece[len(piece)-1] == '\n'
			sp.piece(*line, piece, lineStart, complete)
			if complete {
				*line++
			}
			lineStart = complete
			*last = piece[len(piece)-1]
			size += int64(len(piece))
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if errors.Is(err, io.EOF) {
			return size, lineStart, nil
		}
		if err != nil {
			return size, lineStart, fmt.Errorf("read %s: %w", rel, err)
		}
		if *line&0xffff == 0 && ctx.Err() != nil {
			return size, lineStart, ctx.Err()
		}
	}
}

// piece takes one piece of line (all of it when complete): removed when
// the line is in the range, else written, and kept as context when it
// is next to the range.
func (sp *splicer) piece(line int, piece []byte, lineStart, complete bool) {
	body, brk := piece, ""
	if complete {
		body, brk = splitBreak(piece)
	}
	if line >= sp.start && line <= sp.end {
		sp.remove(line, body, lineStart, complete)
		return
	}
	if lineStart {
		sp.beginLine()
	}
	sp.out.Write(body)
	if lineStart && ((line >= sp.start-contextLines && line < sp.start) || (line > sp.end && line <= sp.end+contextLines)) {
		sp.keepContext(line, body)
	}
	if complete {
		sp.pending = brk
	}
}

// checkSplice refuses what the splice found: an old file other than the
// one read (stale), a binary one, a removed line whose bytes are not
// UTF-8, or new lines that stand in for removed ones (placeholders).
func checkSplice(e *edit, fp *sandbox.Fingerprint, sp *splicer, size int64, added []string) (*tools.Result, error) {
	if fp.CRC != e.seen.crc || size != e.seen.size {
		return nil, sandbox.ErrStale
	}
	if fp.NUL {
		res := sandbox.BinaryResult(e.t.Asked)
		return &res, nil
	}
	if sp.badLine > 0 {
		res := tools.Errorf(tools.CodeUnsupportedType, "line %d of %s holds bytes that are not valid UTF-8, which replacing it would lose; leave that line out of the range", sp.badLine, e.t.Asked)
		return &res, nil
	}
	removed := lineSet(sp.h.removed)
	if sp.h.removedCount > len(sp.h.removed) {
		removed = nil // too many removed lines were seen to compare all of them
	}
	if n, l, ok := findPlaceholder(added, sp.h.removedCount, removed); ok {
		res := placeholderPartial(e, n, l, sp.h.removedCount)
		return &res, nil
	}
	return nil, nil
}

// commitPartial commits the spliced replacement and says what changed.
func (s *Session) commitPartial(ctx context.Context, e *edit, rep *sandbox.Replacement, sp *splicer, added []string) (tools.Result, error) {
	start, end, total := sp.start, sp.end, e.seen.lines
	newTotal := total - (end - start + 1) + len(added)
	blob, err := s.commitEdit(ctx, e, rep, hex.EncodeToString(e.seen.sum[:]), backup.OpPartial, newTotal)
	if err != nil {
		return tools.Result{}, err
	}
	sp.h.added = added
	ending := endingLF
	if sp.style == "\r\n" {
		ending = endingCRLF
	}
	delta := newTotal - total
	s.noteShift(e.info.ChangeSet, e.t.Rel, end+1, delta, false)
	meta := writeMeta(total, newTotal, ending, e.info.ChangeSet, blob)
	if len(added) > 0 {
		meta = append(meta, tools.Attr{Name: "written", Value: fmt.Sprintf("%d-%d", start, start+len(added)-1)})
	}
	return tools.Result{
		Message:  fmt.Sprintf("%s; %s now has %s (was %d)%s%s", describeSplice(start, end, total, len(added)), e.t.Rel, sandbox.Plural(newTotal, "line", "lines"), total, describeWritten(start, len(added), end, delta), backupNote(blob)),
		Metadata: meta,
		Content:  sp.h.render(e.t.Rel),
		Changed:  []string{e.t.Rel},
	}, nil
}

// remove takes a piece of a line inside the range: it is not written, but
// kept (up to maxCapture lines) for the diff and checked for UTF-8.
func (sp *splicer) remove(line int, body []byte, lineStart, complete bool) {
	if lineStart {
		sp.h.removedCount++
		sp.u8.reset()
		sp.lineBad = false
		sp.bodyCap = sp.bodyCap[:0]
	}
	if !sp.u8.valid(body) {
		sp.lineBad = true
	}
	if len(sp.h.removed) < maxCapture && len(sp.bodyCap) < 4*maxDiffLineLen {
		sp.bodyCap = append(sp.bodyCap, body...)
	}
	if complete {
		sp.endRemoved(line)
	}
}

// endRemoved closes a removed line.
func (sp *splicer) endRemoved(line int) {
	if (sp.lineBad || sp.u8.pending()) && sp.badLine == 0 {
		sp.badLine = line
	}
	if len(sp.h.removed) < maxCapture {
		sp.h.removed = append(sp.h.removed, strings.TrimSuffix(string(sp.bodyCap), "\r"))
	}
}

// keepContext keeps the first piece of an unchanged line near the range.
func (sp *splicer) keepContext(line int, body []byte) {
	text := strings.TrimSuffix(string(body[:min(len(body), 4*maxDiffLineLen)]), "\r")
	if line < sp.start {
		sp.h.before = append(sp.h.before, text)
	} else {
		sp.h.after = append(sp.h.after, text)
	}
}

// splitBreak splits a complete line into body and break (\n or \r\n).
func splitBreak(piece []byte) ([]byte, string) {
	if bytes.HasSuffix(piece, []byte("\r\n")) {
		return piece[:len(piece)-2], "\r\n"
	}
	return piece[:len(piece)-1], "\n"
}

// firstBreak peeks at the file's first line break: new lines get the same.
func firstBreak(br *bufio.Reader) string {
	head, _ := br.Peek(readBufSize)
	if i := bytes.IndexByte(head, '\n'); i > 0 && head[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

func describeSplice(start, end, total, n int) string {
	switch {
	case end == start-1 && start == total+1:
		return fmt.Sprintf("appended %s", sandbox.Plural(n, "line", "lines"))
	case end == start-1:
		return fmt.Sprintf("inserted %s before line %d", sandbox.Plural(n, "line", "lines"), start)
	case n == 0:
		return fmt.Sprintf("deleted lines %d-%d", start, end)
	}
	return fmt.Sprintf("replaced lines %d-%d (%s) with %s", start, end, sandbox.Plural(end-start+1, "line", "lines"), sandbox.Plural(n, "line", "lines"))
}

func placeholderPartial(e *edit, n int, line string, removed int) tools.Result {
	return tools.Errorf(tools.CodeContentPlaceholder, "content line %d (%q) stands in for text it does not contain, and it replaces %d longer lines of %s; send the real lines, or narrow start_line-end_line to the lines you change", n, line, removed, e.t.Asked)
}

// copyLines copies the first n lines of br to w verbatim, in bulk, and
// returns the number of the next line, the bytes copied and the last of
// them. It stops early at the end of the file.
func copyLines(br *bufio.Reader, w io.Writer, n int) (next int, size int64, last byte, err error) {
	next = 1
	for next <= n {
		if _, err := br.Peek(1); err != nil {
			if errors.Is(err, io.EOF) {
				return next, size, last, nil
			}
			return next, size, last, err
		}
		chunk, _ := br.Peek(br.Buffered())
		take := len(chunk)
		if c := bytes.Count(chunk, []byte{'\n'}); next+c > n {
			// The n-th line ends in this chunk: find its break.
			take = 0
			for next <= n {
				i := bytes.IndexByte(chunk[take:], '\n')
				take += i + 1
				next++
			}
		} else {
			next += c
		}
		if _, err := w.Write(chunk[:take]); err != nil {
			return next, size, last, err
		}
		size += int64(take)
		last = chunk[take-1]
		br.Discard(take)
	}
	return next, size, last, nil
}

func describeRange(start, end int) string {
	if end < start {
		return fmt.Sprintf("an insertion before line %d", start)
	}
	return fmt.Sprintf("lines %d-%d", start, end)
}

// describeWritten gives the written lines' new numbers and, when the line
// count changed, where the lines below moved: what the model needs to
// plan its next edit of the file.
func describeWritten(start, n, end, delta int) string {
	s := ""
	if n > 0 {
		s = fmt.Sprintf("; the new lines are %d-%d", start, start+n-1)
	}
	if delta != 0 {
		s += fmt.Sprintf("; the lines after old line %d moved by %+d", end, delta)
	}
	return s
}

package fsedit

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit/backup"
)

// rewriteKeep is the largest old content a rewrite keeps in memory for
// its placeholder check; a larger file is only hashed. A diff is computed
// only up to diffKeep: beyond that it costs more than it tells.
const (
	rewriteKeep = 8 << 20
	diffKeep    = 1 << 20
)

// oldContent is a file's old content as a rewrite saw it.
type oldContent struct {
	text []byte // nil when larger than rewriteKeep
	st   textStats
	sum  string
}

// readOld reads r once: hash, stats, and the bytes when they fit in keep.
func readOld(ctx context.Context, r io.Reader, keep int64) (oldContent, error) {
	h := sha256.New()
	br := bufio.NewReaderSize(io.TeeReader(r, h), readBufSize)
	var (
		c   lineCounter
		buf bytes.Buffer
		big bool
	)
	for n := 0; ; n++ {
		piece, err := br.ReadSlice('\n')
		c.add(piece)
		if !big {
			buf.Write(piece)
			big = int64(buf.Len()) > keep
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return oldContent{}, fmt.Errorf("read old content: %w", err)
		}
		if n&0xffff == 0 && ctx.Err() != nil {
			return oldContent{}, ctx.Err()
		}
	}
	o := oldContent{st: c.finish(), sum: hex.EncodeToString(h.Sum(nil))}
	if !big {
		o.text = buf.Bytes()
	}
	return o, nil
}

// keptMode is the part of a file's mode a write carries over: the
// permission bits only. Setuid, setgid and sticky are dropped, as
// chmod(2) and every editor's write do: a program the model rewrote must
// not run with its owner's or group's rights (a setgid tool.sh with new
// content is a way into that group).
func keptMode(fi fs.FileInfo) fs.FileMode {
	return fi.Mode().Perm()
}

// rewrite replaces the whole content of an existing file, keeping its
// line endings and its final-newline state.
func (s *Session) rewrite(ctx context.Context, e *edit) (tools.Result, error) {
	old, err := readOld(ctx, e.src, rewriteKeep)
	if err != nil {
		return tools.Result{}, err
	}
	if old.sum != hex.EncodeToString(e.seen.sum[:]) {
		return tools.Result{}, errStale
	}
	if old.st.binary {
		return binaryResult(e.t.asked), nil
	}
	if old.st.badCount > 0 {
		return tools.Errorf(tools.CodeUnsupportedType, "%s holds bytes that are not valid UTF-8 (line %s); a rewrite would lose them, so change the other lines with partial writes", e.t.asked, joinInts(old.st.badLines)), nil
	}
	content := e.args.Content
	var oldText string
	var known map[string]bool
	bom := strings.HasPrefix(string(old.text[:min(len(old.text), 3)]), utf8BOM)
	if old.text == nil {
		bom = hasBOM(e.src)
	}
	content = strings.TrimPrefix(content, utf8BOM)
	if old.text != nil {
		oldText = strings.ReplaceAll(strings.TrimPrefix(string(old.text), utf8BOM), "\r\n", "\n")
		known = lineSet(strings.Split(oldText, "\n"))
	}
	if content == "" && old.st.size > 0 {
		return tools.Errorf(tools.CodeContentPlaceholder, "the content is empty, which would erase the %s of %s; to empty a file, say so to the user; send the full content", plural(old.st.lines, "line", "lines"), e.t.asked), nil
	}
	if n, line, ok := findPlaceholder(splitContent(content), old.st.lines, known); ok {
		return tools.Errorf(tools.CodeContentPlaceholder, "content line %d (%q) stands in for text it does not contain; a rewrite replaces the whole file (%s now), so send the complete content, or use operation_type partial to change only some lines", n, line, plural(old.st.lines, "line", "lines")), nil
	}

	br := breakFor(old.st.ending, old.st.firstCRLF)
	newText := withBreaks(content, br)
	if old.st.size > 0 && newText != "" {
		if old.st.finalNewline && !strings.HasSuffix(newText, "\n") {
			newText += br
		} else if !old.st.finalNewline {
			newText = strings.TrimSuffix(newText, br)
		}
	}
	rep, err := s.newReplacement(e, keptMode(e.fi))
	if err != nil {
		return tools.Result{}, describeWriteErr(e.t.rel, err)
	}
	rep.watch(ctx)
	if bom {
		rep.WriteString(utf8BOM)
	}
	rep.WriteString(newText)
	newLines := countLines(newText)
	blob, err := s.commitEdit(ctx, e, rep, old.sum, backup.OpRewrite, newLines)
	if err != nil {
		return tools.Result{}, err
	}
	// Which numbers a later partial write of this reply means, the old
	// ones or the rewritten ones, cannot be known: if the count changed,
	// it is refused (replace still works).
	s.noteShift(e.info.ChangeSet, e.t.rel, 1, newLines-old.st.lines, false)
	res := tools.Result{
		Message:  fmt.Sprintf("rewrote %s: %s before, %d after%s", e.t.rel, plural(old.st.lines, "line", "lines"), newLines, backupNote(blob)),
		Metadata: writeMeta(old.st.lines, newLines, old.st.ending, e.info.ChangeSet, blob),
		Changed:  []string{e.t.rel},
	}
	if old.text != nil && len(oldText) <= diffKeep && len(newText) <= diffKeep {
		res.Content = shortDiff(e.t.rel, oldText, strings.ReplaceAll(newText, "\r\n", "\n"))
	} else {
		res.Content = fmt.Sprintf("(no diff: the content is over %s)\n", humanSize(diffKeep))
	}
	return res, nil
}

func writeMeta(before, after int, ending, changeSet, blob string) []tools.Attr {
	meta := []tools.Attr{
		{Name: "lines_before", Value: itoa(before)},
		{Name: "lines_after", Value: itoa(after)},
		{Name: "line_ending", Value: ending},
	}
	if blob != "" {
		meta = append(meta, tools.Attr{Name: "change_set", Value: changeSet})
	}
	return meta
}

func backupNote(blob string) string {
	if blob == "" {
		return " (no backup kept)"
	}
	return "; the old content is backed up"
}

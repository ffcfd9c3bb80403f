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
	"strings"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
	"github.com/agentcli/agent/tools/sandbox/backup"
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

// rewrite replaces the whole content of an existing file, keeping its
// line endings and its final-newline state.
func (s *Session) rewrite(ctx context.Context, e *edit) (tools.Result, error) {
	old, err := readOld(ctx, e.src, rewriteKeep)
	if err != nil {
		return tools.Result{}, err
	}
	if old.sum != hex.EncodeToString(e.seen.sum[:]) {
		return tools.Result{}, sandbox.ErrStale
	}
	if old.st.binary {
		return sandbox.BinaryResult(e.t.Asked), nil
	}
	if old.st.badCount > 0 {
		return tools.Errorf(tools.CodeUnsupportedType, "%s holds bytes that are not valid UTF-8 (line %s); a rewrite would lose them, so change the other lines with partial writes", e.t.Asked, joinInts(old.st.badLines)), nil
	}
	content := e.args.Content
	var oldText string
	var known map[string]bool
	bom := strings.HasPrefix(string(old.text[:min(len(old.text), 3)]), sandbox.UTF8BOM)
	if old.text == nil {
		bom = sandbox.HasBOM(e.src)
	}
	content = strings.TrimPrefix(content, sandbox.UTF8BOM)
	if old.text != nil {
		oldText = strings.ReplaceAll(strings.TrimPrefix(string(old.text), sandbox.UTF8BOM), "\r\n", "\n")
		known = lineSet(strings.Split(oldText, "\n"))
	}
	if content == "" && old.st.size > 0 {
		return tools.Errorf(tools.CodeContentPlaceholder, "the content is empty, which would erase the %s of %s; to empty a file, say so to the user; send the full content", sandbox.Plural(old.st.lines, "line", "lines"), e.t.Asked), nil
	}
	if n, line, ok := findPlaceholder(splitContent(content), old.st.lines, known); ok {
		return tools.Errorf(tools.CodeContentPlaceholder, "content line %d (%q) stands in for text it does not contain; a rewrite replaces the whole file (%s now), so send the complete content, or use operation_type partial to change only some lines", n, line, sandbox.Plural(old.st.lines, "line", "lines")), nil
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
	rep, err := s.newReplacement(e, sandbox.KeptMode(e.fi))
	if err != nil {
		return tools.Result{}, sandbox.DescribeWriteErr(e.t.Rel, err)
	}
	rep.Watch(ctx)
	if bom {
		rep.WriteString(sandbox.UTF8BOM)
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
	s.noteShift(e.info.ChangeSet, e.t.Rel, 1, newLines-old.st.lines, false)
	res := tools.Result{
		Message:  fmt.Sprintf("rewrote %s: %s before, %d after%s", e.t.Rel, sandbox.Plural(old.st.lines, "line", "lines"), newLines, backupNote(blob)),
		Metadata: writeMeta(old.st.lines, newLines, old.st.ending, e.info.ChangeSet, blob),
		Changed:  []string{e.t.Rel},
	}
	if old.text != nil && len(oldText) <= diffKeep && len(newText) <= diffKeep {
		res.Content = shortDiff(e.t.Rel, oldText, strings.ReplaceAll(newText, "\r\n", "\n"))
	} else {
		res.Content = fmt.Sprintf("(no diff: the content is over %s)\n", sandbox.HumanSize(diffKeep))
	}
	return res, nil
}

func writeMeta(before, after int, ending, changeSet, blob string) []tools.Attr {
	meta := []tools.Attr{
		{Name: "lines_before", Value: sandbox.Itoa(before)},
		{Name: "lines_after", Value: sandbox.Itoa(after)},
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

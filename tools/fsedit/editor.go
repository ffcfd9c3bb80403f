package fsedit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
	"github.com/agentcli/agent/tools/sandbox/backup"
)

// Editor is the person's editor, which holds the project's files open
// (an editor speaking the Agent Client Protocol). With one, read_file
// reads a file's text as the editor has it, unsaved changes included,
// and write_file hands the new text to the editor, so the edit shows
// there. Every guard stays: the path is checked and the file opened
// through the sandbox first, a write needs the read, the text the model
// read must be the editor's text now (else FILE_STALE), and the old text
// is backed up before the editor gets the new one.
//
// Either function may be nil: the disk is used for that direction.
type Editor struct {
	// Read returns the text of the file at the absolute path abs.
	Read func(ctx context.Context, abs string) (string, error)
	// Write replaces the text of the file at the absolute path abs,
	// creating it when it does not exist.
	Write func(ctx context.Context, abs, text string) error
}

// UseEditor makes the session's file tools read and write through e.
// Call it before the first call.
func (s *Session) UseEditor(e Editor) { s.editor = e }

// abs is the absolute path of t, as an editor names files.
func (s *Session) abs(t sandbox.Target) string {
	return filepath.Join(s.root.Dir(), filepath.FromSlash(t.Rel))
}

// editorText is the file's text as the editor has it; ok false when the
// session has no editor that reads, or it could not read the file (the
// disk, through the sandbox, is read then).
func (s *Session) editorText(ctx context.Context, t sandbox.Target) (text string, ok bool) {
	if s.editor.Read == nil {
		return "", false
	}
	text, err := s.editor.Read(ctx, s.abs(t))
	return text, err == nil
}

// textInfo is a file's state with the size of the editor's text.
type textInfo struct {
	fs.FileInfo
	size int64
}

func (i textInfo) Size() int64 { return i.size }

// fromEditor makes the edit e work on the editor's text, and checks that
// it is what the model read: a person's change there since the read is
// FILE_STALE, as a change on disk is.
func (s *Session) fromEditor(ctx context.Context, e *edit) *tools.Result {
	text, ok := s.editorText(ctx, e.t)
	if !ok {
		return nil // the disk's content, checked as always
	}
	if sha256.Sum256([]byte(text)) != e.seen.sum {
		res := tools.Errorf(tools.CodeFileStale, "%s changed in the editor since you last read it; read it again and make your change on the current text", e.t.Asked)
		return &res
	}
	e.src, e.size = strings.NewReader(text), int64(len(text))
	e.fromEditor = true
	return nil
}

// commitToEditor finishes an edit whose new content went into e.out
// (rep), as commitEdit does on disk: the old text backed up and recorded
// first, then the new one handed to the editor.
func (s *Session) commitToEditor(ctx context.Context, e *edit, rep *sandbox.Replacement, oldSum, op string, newLines int) (string, error) {
	defer rep.Abort()
	if _, err := rep.Flush(); err != nil {
		return "", sandbox.DescribeWriteErr(e.t.Rel, err)
	}
	if oldSum != hex.EncodeToString(e.seen.sum[:]) {
		return "", sandbox.ErrStale
	}
	old, err := oldBytes(e)
	if err != nil {
		return "", err
	}
	blob, err := s.root.BackupText(e.info.ChangeSet, e.t.Rel, old)
	if err != nil {
		return "", err
	}
	entry := backup.Entry{
		Session: e.info.SessionID, Call: e.info.CallID, ChangeSet: e.info.ChangeSet, Run: sandbox.RunOf(ctx),
		Path: e.t.Rel, Op: op, Existed: true, Blob: backup.BlobRel(blob),
		Mode: e.fi.Mode().Perm(), Size: int64(len(old)), SHA256Before: oldSum, SHA256After: rep.Hash(),
	}
	if err := ctx.Err(); err != nil {
		s.root.DropBlob(blob)
		return "", err
	}
	if err := s.root.Record(entry); err != nil {
		s.root.DropBlob(blob)
		return "", err
	}
	if err := s.editor.Write(ctx, s.abs(e.t), e.out.String()); err != nil {
		return "", fmt.Errorf("the editor did not write %s: %w", e.t.Rel, err)
	}
	known := e.known
	if op == backup.OpRewrite {
		known = []lineSpan{{from: 1, to: newLines, call: e.info.CallID}}
	}
	s.rememberEdited(e.t, rep, e.out.Len(), newLines, rep.Checkpoints(e.seen.cps, e.resumedAt), known)
	return blob, nil
}

// oldBytes is the whole old content of e as the edit read it.
func oldBytes(e *edit) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.NewSectionReader(e.src, 0, e.size)); err != nil {
		return nil, fmt.Errorf("read %s: %w", e.t.Rel, err)
	}
	return buf.Bytes(), nil
}

// createInEditor makes a new file through the editor, its folders made
// inside the sandbox first and recorded, so that undo removes them.
func (s *Session) createInEditor(ctx context.Context, t sandbox.Target, a WriteArgs, info tools.CallInfo) (tools.Result, error) {
	dir, err := s.root.OpenDir(t.Dir(), true)
	if err != nil {
		return s.openFailed(t, err)
	}
	defer dir.Close()
	if err := s.root.CheckStateDir("backups"); err != nil { // undo must be able to remove it
		return tools.Result{}, err
	}
	var out bytes.Buffer
	rep := sandbox.NewDryReplacement(dir, t.Base(), &out)
	defer rep.Abort()
	rep.WriteString(a.Content)
	if _, err := rep.Flush(); err != nil {
		return tools.Result{}, sandbox.DescribeWriteErr(t.Rel, err)
	}
	if err := ctx.Err(); err != nil {
		return tools.Result{}, err
	}
	if err := s.root.Record(backup.Entry{
		Session: info.SessionID, Call: info.CallID, ChangeSet: info.ChangeSet, Run: sandbox.RunOf(ctx),
		Path: t.Rel, Op: backup.OpCreate, SHA256After: rep.Hash(), Dirs: dir.Made,
	}); err != nil {
		return tools.Result{}, err
	}
	if err := s.editor.Write(ctx, s.abs(t), a.Content); err != nil {
		return tools.Result{}, fmt.Errorf("the editor did not write %s: %w", t.Rel, err)
	}
	lines := countLines(a.Content)
	s.rememberEdited(t, rep, out.Len(), lines, rep.Checkpoints(nil, 0), []lineSpan{{from: 1, to: lines, call: info.CallID}})
	s.noteShift(info.ChangeSet, t.Rel, 0, 0, true)
	return tools.Result{
		Message:  fmt.Sprintf("created %s (%s, %s)", t.Rel, sandbox.Plural(lines, "line", "lines"), sandbox.HumanSize(int64(out.Len()))),
		Metadata: []tools.Attr{{Name: "lines", Value: sandbox.Itoa(lines)}, {Name: "size", Value: fmt.Sprint(out.Len())}},
		Changed:  []string{t.Rel},
	}, nil
}

// rememberEdited records a file the editor was handed as known to the
// model. Its state on disk is taken when the editor saved the text
// there; else the text alone is known (its size, and no time), which
// the next write compares with the editor's text.
func (s *Session) rememberEdited(t sandbox.Target, rep *sandbox.Replacement, size, lines int, cps []sandbox.Checkpoint, known []lineSpan) {
	var mtime time.Time
	if fresh, err := s.root.Resolve(t.Rel); err == nil && fresh.Info != nil && fresh.Info.Size() == int64(size) {
		mtime = fresh.Info.ModTime()
	}
	s.remember(t.Rel, fileState{size: int64(size), mtime: mtime, lines: lines, sum: rep.Final, crc: rep.CRC, cps: cps, known: known})
}

package fsedit

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
	"github.com/agentcli/agent/tools/sandbox/backup"
)

//go:embed write_file.md
var writeDesc string

// WriteArgs are write_file's parameters.
type WriteArgs struct {
	OperationType string  `json:"operation_type" enum:"replace,create,rewrite,partial" jsonschema:"see above"`
	FilePath      string  `json:"file_path" path:"true" jsonschema:"path relative to the project root"`
	Content       string  `json:"content" verbatim:"true" jsonschema:"new text; the whole file for create, rewrite"`
	OldText       *string `json:"old_text,omitempty" verbatim:"true" jsonschema:"replace: the text to change"`
	ReplaceAll    bool    `json:"replace_all,omitempty" jsonschema:"replace: change every occurrence"`
	StartLine     *int    `json:"start_line,omitempty" jsonschema:"partial: first line, 1-based"`
	EndLine       *int    `json:"end_line,omitempty" jsonschema:"partial: last line, inclusive"`
	CreateBackup  *bool   `json:"create_backup,omitempty" jsonschema:"ignored"`
}

// WriteTool returns write_file.
func (s *Session) WriteTool() tools.Tool {
	return writeTool{Tool: tools.New("write_file", writeDesc, sandbox.Guarded(s.write, func(a WriteArgs) string { return a.FilePath }), tools.Writes(), tools.Acts(tools.ActionEdit)), s: s}
}

// edit is a rewrite or partial write in progress on an existing file.
type edit struct {
	t    sandbox.Target
	args WriteArgs
	dir  sandbox.DirHandle
	f    *os.File    // the old content, verified
	fi   fs.FileInfo // its state when opened
	seen fileState   // what the model last knew of it
	info tools.CallInfo
	// src is the old content as the edit reads it: f, or for a UTF-16
	// file its text decoded (enc is then its encoding, rawSum the SHA-256
	// of its bytes, and seen describes the decoded text; see openUTF16).
	src    oldSource
	size   int64 // of src
	enc    string
	rawSum string
	// fromEditor: src is the editor's text (see fromEditor); out holds
	// the new content when the editor is to be handed it.
	fromEditor bool
	out        bytes.Buffer
	// dry: only check and compute the new content (see writeFile).
	dry *dryRun
	// known: what the model knows of the new content once it lands.
	known []lineSpan
	// resumedAt is where the new content's hash resumed from a checkpoint
	// of the old content: those up to it stay valid for the new content.
	resumedAt int64
}

func (s *Session) write(ctx context.Context, a WriteArgs) (tools.Result, error) {
	res, err := s.writeFile(ctx, a, nil)
	// A file system refusal (permission denied) is the model's to handle.
	var rf *sandbox.Refusal
	if errors.As(err, &rf) {
		return rf.Result(), nil
	}
	return res, err
}

// writeFile runs a write, or with dry set checks it completely and
// computes its new content into dry without writing anything nor
// changing what the session knows (for Preview).
func (s *Session) writeFile(ctx context.Context, a WriteArgs, dry *dryRun) (tools.Result, error) {
	t, rf, err := s.root.FileTarget(a.FilePath)
	if err != nil {
		return tools.Result{}, err
	}
	if rf != nil {
		return rf.Result(), nil
	}
	if a.OperationType != "partial" && (a.StartLine != nil || a.EndLine != nil) {
		return tools.Errorf(tools.CodeInvalidRange, "start_line and end_line apply only to operation_type partial; use partial to replace lines, or leave them out to %s the whole file", a.OperationType), nil
	}
	if a.OperationType != "replace" && (a.OldText != nil || a.ReplaceAll) {
		return tools.Errorf(tools.CodeSchemaInvalid, "old_text and replace_all apply only to operation_type replace; use replace to change a piece of text, or leave them out"), nil
	}
	info := s.callInfo(ctx)
	if a.OperationType == "create" && s.editor.Write != nil && dry == nil && t.Info == nil {
		return s.createInEditor(ctx, t, a, info)
	}
	if a.OperationType == "create" {
		return s.create(ctx, t, a, info, dry)
	}
	if t.Info == nil {
		return tools.Errorf(tools.CodeFileNotFound, "%s does not exist; use operation_type create to make it", a.FilePath), nil
	}
	seen, ok := s.recall(t.Rel)
	if !ok {
		return tools.Errorf(tools.CodeFileStale, "you have not read %s in this conversation; read it with read_file first (a range is enough for a partial write), then write", a.FilePath), nil
	}
	if b := s.readBudget(); a.OperationType == "rewrite" && b > 0 && t.Info.Size() > b {
		return tools.Errorf(tools.CodeFileTooLarge, "%s is %s, more than fits in the conversation now (%s), so it cannot be rewritten whole; change it with operation_type replace or partial", a.FilePath, sandbox.HumanSize(t.Info.Size()), sandbox.HumanSize(b)), nil
	}
	if a.OperationType == "rewrite" && !seen.whole() {
		return tools.Errorf(tools.CodeFileStale, "a rewrite replaces all of %s, but you have not read it whole (one read, or ranges read in order from line 1 with no gap); read the whole file first (read_file without start_line and end_line), or use operation_type partial to change the lines you read", a.FilePath), nil
	}
	dir, err := s.root.OpenDir(t.Dir(), false)
	if err != nil {
		return s.openFailed(t, err)
	}
	defer dir.Close()
	f, fi, err := sandbox.OpenIn(dir, t.Base(), os.O_RDONLY)
	if err != nil {
		return s.openFailed(t, err)
	}
	defer f.Close()
	if s.editor.Read == nil && !seen.matches(fi) {
		return staleResult(t, fi), nil
	}
	// The rename of a new file into place ignores the old one's mode: a
	// file nobody may write must be refused here, or it is overwritten.
	if fi.Mode().Perm()&0o222 == 0 {
		return tools.Errorf(tools.CodePolicyDenied, "%s is read-only (mode %04o); ask the user to make it writable", a.FilePath, fi.Mode().Perm()), nil
	}
	if !sandbox.WritableByUs(fi) {
		return sandbox.PermDenied(a.FilePath, "write").Result(), nil
	}
	e := &edit{t: t, args: a, dir: dir, f: f, src: f, size: fi.Size(), fi: fi, seen: seen, info: info, dry: dry}
	if res := s.fromEditor(ctx, e); res != nil {
		return *res, nil
	}
	if enc := fileUTF16(f); enc != "" && !e.fromEditor {
		res, err := openUTF16(e, enc)
		if res != nil || err != nil {
			if errors.Is(err, sandbox.ErrStale) {
				return staleResult(t, fi), nil
			}
			return derefResult(res), err
		}
	}
	var res tools.Result
	switch a.OperationType {
	case "rewrite":
		res, err = s.rewrite(ctx, e)
	case "replace":
		res, err = s.replace(ctx, e)
	default:
		res, err = s.partial(ctx, e)
	}
	if errors.Is(err, errDryRun) {
		return tools.Result{}, nil
	}
	if errors.Is(err, sandbox.ErrStale) {
		if dry == nil {
			s.forget(t.Rel)
		}
		return tools.Errorf(tools.CodeFileStale, "%s changed on disk while it was being written (another program edited it); it was left as that program wrote it: read it again and redo your change", a.FilePath), nil
	}
	if err != nil {
		return tools.Result{}, err
	}
	if a.CreateBackup != nil && !*a.CreateBackup && !res.IsError() {
		// Nothing the agent overwrites is ever lost: the old switch is
		// accepted for compatibility and has no effect.
		res.Message += "; create_backup=false is ignored: backups are always kept"
	}
	return res, nil
}

func (s *Session) openFailed(t sandbox.Target, err error) (tools.Result, error) {
	if rf, ok := sandbox.AsRefusal(t, err); ok {
		return rf.Result(), nil
	}
	return tools.Result{}, err
}

func staleResult(t sandbox.Target, fi fs.FileInfo) tools.Result {
	return tools.Errorf(tools.CodeFileStale, "%s changed on disk since you last read it (now %s, modified %s); read it again and make your change on the current content", t.Asked, sandbox.HumanSize(fi.Size()), fi.ModTime().Format(time.RFC3339))
}

// create writes a new file, making its parent folders inside the root.
func (s *Session) create(ctx context.Context, t sandbox.Target, a WriteArgs, info tools.CallInfo, dry *dryRun) (tools.Result, error) {
	exists := func() tools.Result {
		return tools.Errorf(tools.CodeFileExists, "%s already exists; read it and use operation_type replace, rewrite or partial, or choose another name", a.FilePath)
	}
	if t.Info != nil {
		return exists(), nil
	}
	if dry != nil {
		dry.capture([]byte(a.Content))
		return tools.Result{}, nil
	}
	dir, err := s.root.OpenDir(t.Dir(), true)
	if err != nil {
		return s.openFailed(t, err)
	}
	defer dir.Close()
	rep, err := sandbox.NewReplacement(dir, t.Base(), 0o644)
	if err != nil {
		return tools.Result{}, sandbox.DescribeWriteErr(t.Rel, err)
	}
	rep.Watch(ctx)
	defer rep.Abort()
	rep.WriteString(a.Content)
	fi, err := rep.Flush()
	if err != nil {
		return tools.Result{}, sandbox.DescribeWriteErr(t.Rel, err)
	}
	if err := ctx.Err(); err != nil { // timed out or cancelled: never land late
		return tools.Result{}, err
	}
	if err := s.root.CheckStateDir("backups"); err != nil { // undo must be able to remove it
		return tools.Result{}, err
	}
	if err := rep.Commit(false); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return exists(), nil
		}
		return tools.Result{}, sandbox.DescribeWriteErr(t.Rel, err)
	}
	sum := rep.Hash()
	lines := countLines(a.Content)
	if err := s.root.Record(backup.Entry{
		Session: info.SessionID, Call: info.CallID, ChangeSet: info.ChangeSet, Run: sandbox.RunOf(ctx),
		Path: t.Rel, Op: backup.OpCreate, SHA256After: sum, Dirs: dir.Made,
	}); err != nil {
		return tools.Result{}, err
	}
	s.rememberWritten(t.Rel, fi, rep, lines, rep.Checkpoints(nil, 0), []lineSpan{{from: 1, to: lines, call: info.CallID}})
	s.noteShift(info.ChangeSet, t.Rel, 0, 0, true)
	return tools.Result{
		Message:  fmt.Sprintf("created %s (%s, %s)", t.Rel, sandbox.Plural(lines, "line", "lines"), sandbox.HumanSize(fi.Size())),
		Metadata: []tools.Attr{{Name: "lines", Value: sandbox.Itoa(lines)}, {Name: "size", Value: fmt.Sprint(fi.Size())}},
		Changed:  []string{t.Rel},
	}, nil
}

// commitEdit finishes an edit whose new content is in rep and whose old
// content hashed to oldSum: it checks the old content is what the model
// read, keeps a backup, and renames the new content into place. Any
// failure before the rename leaves the file untouched and no temp file;
// so does a cancelled or timed-out call, which must not land after its
// TOOL_TIMEOUT was reported.
func (s *Session) commitEdit(ctx context.Context, e *edit, rep *sandbox.Replacement, oldSum string, op string, newLines int) (blob string, err error) {
	if e.dry == nil && s.editor.Write != nil {
		return s.commitToEditor(ctx, e, rep, oldSum, op, newLines)
	}
	defer rep.Abort()
	rep.Chown(e.fi)
	newFi, err := rep.Flush()
	if err != nil {
		return "", sandbox.DescribeWriteErr(e.t.Rel, err)
	}
	if oldSum != hex.EncodeToString(e.seen.sum[:]) {
		return "", sandbox.ErrStale
	}
	if e.dry != nil {
		return "", e.dry.keepOld(e.src, e.size)
	}
	if e.rawSum != "" {
		oldSum = e.rawSum // the manifest records the bytes on disk
	}
	if blob, err = s.root.BackupOld(e.info.ChangeSet, e.t.Rel, e.f, e.fi, oldSum); err != nil {
		return "", err
	}
	// The old inode must not have changed since it was read and linked.
	if now, err := e.f.Stat(); err != nil || now.Size() != e.fi.Size() || !now.ModTime().Equal(e.fi.ModTime()) {
		s.root.DropBlob(blob)
		return "", sandbox.ErrStale
	}
	entry := backup.Entry{
		Session: e.info.SessionID, Call: e.info.CallID, ChangeSet: e.info.ChangeSet, Run: sandbox.RunOf(ctx),
		Path: e.t.Rel, Op: op, Existed: true, Blob: backup.BlobRel(blob),
		Mode: e.fi.Mode().Perm(), Size: e.fi.Size(), SHA256Before: oldSum, SHA256After: rep.Hash(),
	}
	if err := ctx.Err(); err != nil {
		s.root.DropBlob(blob)
		return "", err
	}
	if err := s.root.Record(entry); err != nil {
		s.root.DropBlob(blob)
		return "", err
	}
	if err := rep.Commit(true); err != nil {
		return "", sandbox.DescribeWriteErr(e.t.Rel, err)
	}
	s.root.SealBlob(blob)
	// A partial write shows the model only its own lines: the rest is
	// as known as it was before.
	known := e.known
	if op == backup.OpRewrite {
		known = []lineSpan{{from: 1, to: newLines, call: e.info.CallID}}
	}
	s.rememberWritten(e.t.Rel, newFi, rep, newLines, rep.Checkpoints(e.seen.cps, e.resumedAt), known)
	return blob, nil
}

// rememberWritten records a file the agent wrote as known to the model:
// it knows the content it just sent, so a following partial write works.
func (s *Session) rememberWritten(rel string, fi fs.FileInfo, rep *sandbox.Replacement, lines int, cps []sandbox.Checkpoint, known []lineSpan) {
	s.remember(rel, fileState{size: fi.Size(), mtime: fi.ModTime(), lines: lines, sum: rep.Final, crc: rep.CRC, cps: cps, known: known})
}

// callInfo returns the call's ids, inventing a change set when the caller
// gave none (a single call from the command line is its own change set).
func (s *Session) callInfo(ctx context.Context) tools.CallInfo {
	info := tools.Info(ctx)
	if info.CallID == "" {
		info.CallID = callID(ctx)
	}
	if info.ChangeSet == "" {
		info.ChangeSet = sandbox.NewChangeSetID(s.root.Options().Now())
	}
	return info
}

// callID is the id of the call running in ctx, for the spans it shows.
func callID(ctx context.Context) string { return tools.Info(ctx).CallID }

// oldSource is where an edit reads the old content.
type oldSource interface {
	io.Reader
	io.ReaderAt
}

func derefResult(r *tools.Result) tools.Result {
	if r == nil {
		return tools.Result{}
	}
	return *r
}

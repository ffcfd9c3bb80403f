package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox/backup"
)

// PutOptions say what a caller of Root.Put may write.
type PutOptions struct {
	// Extensions are the file types the caller writes, such as ".wav"
	// for the audio tool or ".md" for the notes export (with or without
	// the dot, any case). It must not be empty: each caller says what it
	// makes, and a path of another type is refused.
	Extensions []string
	// Overwrite lets Put replace an existing file (its old content is
	// backed up first, so undo brings it back); without it an existing
	// file is refused with FILE_EXISTS.
	Overwrite bool
	// Mode is a new file's permission bits; 0o644 when zero. A replaced
	// file keeps its own.
	Mode fs.FileMode
}

// PutResult is what Put did, or why it did not.
type PutResult struct {
	// Refused is set when the write was not made for a reason the model
	// (or whoever chose the path) can fix: a bad or protected path, a
	// type the caller may not write, a secret file, an existing file
	// without Overwrite, permission denied. It is a ready tools.Result
	// with a protocol code and a one-line message; return it as the
	// tool's answer. The other fields are then zero.
	Refused *tools.Result
	// Path is the file's canonical project path (slash-separated).
	Path string
	// Created is true when the file did not exist before.
	Created bool
	// Size is the number of bytes written.
	Size int64
	// ChangeSet is the change set the write was recorded in: the
	// caller's (tools.Info(ctx).ChangeSet) or a new one.
	ChangeSet string
}

// Put writes data to the project file rel as the file tools write:
//
//   - the same path checks (inside the root, no .git or .agent, no
//     symlink out, no control or invisible characters, no secret files);
//   - only the types of opt.Extensions;
//   - parent folders made inside the root;
//   - atomic: a temp file in the same folder, fsync, rename, fsync of the
//     folder; a failure or cancellation leaves the old file and no temp
//     file;
//   - recorded in the current change set (tools.Info(ctx)), with the old
//     content backed up, so `agent undo` restores a replaced file or
//     removes a created one together with the rest of the reply.
//
// Model-fixable problems come back in PutResult.Refused; the error is
// for failures of the machine (a full disk, a read-only file system) and
// of the program (an empty opt.Extensions).
func (r *Root) Put(ctx context.Context, rel string, data []byte, opt PutOptions) (PutResult, error) {
	if len(opt.Extensions) == 0 {
		return PutResult{}, errors.New("sandbox.Put: PutOptions.Extensions is empty; name the file types the caller writes")
	}
	refused := func(rf *Refusal) (PutResult, error) {
		res := rf.Result()
		return PutResult{Refused: &res}, nil
	}
	if err := ctx.Err(); err != nil {
		return PutResult{}, err
	}
	t, rf, err := r.checkPut(rel, opt)
	if rf != nil {
		return refused(rf)
	}
	if err != nil {
		return PutResult{}, err
	}
	info := tools.Info(ctx)
	if info.ChangeSet == "" {
		info.ChangeSet = NewChangeSetID(r.opts.Now())
	}
	res, err := r.put(ctx, t, data, opt, info)
	if rf, ok := fsRefusal(rel, err); ok {
		return refused(rf)
	}
	return res, err
}

// CheckPut runs Put's checks on rel without writing anything: a caller
// can refuse a bad path before doing expensive work (speaking a long
// text). The Result is set when Put would refuse.
func (r *Root) CheckPut(rel string, opt PutOptions) (*tools.Result, error) {
	if len(opt.Extensions) == 0 {
		return nil, errors.New("sandbox.CheckPut: PutOptions.Extensions is empty; name the file types the caller writes")
	}
	_, rf, err := r.checkPut(rel, opt)
	if rf != nil {
		res := rf.Result()
		return &res, nil
	}
	return nil, err
}

// checkPut resolves rel and checks it the way Put does.
func (r *Root) checkPut(rel string, opt PutOptions) (Target, *Refusal, error) {
	if rf := checkPathText(rel, "the path"); rf != nil {
		return Target{}, rf, nil
	}
	if !extAllowed(rel, opt.Extensions) {
		return Target{}, &Refusal{Code: tools.CodeUnsupportedType, msg: fmt.Sprintf("%s: this tool writes only %s files; give a name ending in one of them", strings.TrimSpace(rel), strings.Join(opt.Extensions, ", "))}, nil
	}
	t, err := r.Resolve(rel)
	if rf, ok := fsRefusal(rel, err); ok {
		return Target{}, rf, nil
	} else if err != nil {
		return Target{}, nil, err
	}
	switch {
	case t.Rel == ".", t.Info != nil && t.Info.IsDir():
		return t, &Refusal{Code: tools.CodeUnsupportedType, msg: fmt.Sprintf("%s is a folder; give a file name", t.Asked)}, nil
	case !extAllowed(t.Rel, opt.Extensions):
		return t, &Refusal{Code: tools.CodeUnsupportedType, msg: fmt.Sprintf("%s leads to %s, which this tool may not write", t.Asked, t.Rel)}, nil
	case IsSecretName(t.Rel) && !r.secretAllowed(t.Rel):
		return t, r.TypeRefusal(t.Rel, t.Asked), nil
	case t.Info != nil && !opt.Overwrite:
		return t, &Refusal{Code: tools.CodeFileExists, msg: fmt.Sprintf("%s already exists; choose another name", t.Asked)}, nil
	}
	return t, nil, nil
}

func (r *Root) put(ctx context.Context, t Target, data []byte, opt PutOptions, info tools.CallInfo) (PutResult, error) {
	dir, err := r.OpenDir(t.Dir(), true)
	if err != nil {
		return PutResult{}, err
	}
	defer dir.Close()
	var (
		old   *os.File
		oldFi fs.FileInfo
		mode  = opt.Mode.Perm()
	)
	if mode == 0 {
		mode = 0o644
	}
	if t.Info != nil {
		if old, oldFi, err = OpenIn(dir, t.Base(), os.O_RDONLY); err != nil {
			return PutResult{}, err
		}
		defer old.Close()
		if oldFi.Mode().Perm()&0o222 == 0 || !WritableByUs(oldFi) {
			return PutResult{}, PermDenied(t.Asked, "write")
		}
		mode = KeptMode(oldFi)
	}
	if err := r.CheckStateDir("backups"); err != nil {
		return PutResult{}, err
	}
	rep, err := NewReplacement(dir, t.Base(), mode)
	if err != nil {
		return PutResult{}, DescribeWriteErr(t.Rel, err)
	}
	rep.Watch(ctx)
	defer rep.Abort()
	rep.Write(data)
	if old != nil {
		rep.Chown(oldFi)
	}
	if _, err := rep.Flush(); err != nil {
		return PutResult{}, DescribeWriteErr(t.Rel, err)
	}
	if err := ctx.Err(); err != nil {
		return PutResult{}, err
	}
	entry := backup.Entry{Session: info.SessionID, Call: info.CallID, ChangeSet: info.ChangeSet, Run: RunOf(ctx), Path: t.Rel, SHA256After: rep.Hash(), Dirs: dir.Made}
	if old == nil {
		if err := rep.Commit(false); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return PutResult{}, &Refusal{Code: tools.CodeFileExists, msg: fmt.Sprintf("%s was created by someone else meanwhile; choose another name", t.Asked)}
			}
			return PutResult{}, DescribeWriteErr(t.Rel, err)
		}
		entry.Op = backup.OpCreate
		if err := r.Record(entry); err != nil {
			return PutResult{}, err
		}
		return PutResult{Path: t.Rel, Created: true, Size: int64(len(data)), ChangeSet: info.ChangeSet}, nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(old, 0, oldFi.Size())); err != nil {
		return PutResult{}, fmt.Errorf("read %s: %w", t.Rel, err)
	}
	sum := hex.EncodeToString(h.Sum(nil))
	blob, err := r.BackupOld(info.ChangeSet, t.Rel, old, oldFi, sum)
	if err != nil {
		return PutResult{}, err
	}
	entry.Op, entry.Existed, entry.Blob = backup.OpPut, true, backup.BlobRel(blob)
	entry.Mode, entry.Size, entry.SHA256Before = oldFi.Mode().Perm(), oldFi.Size(), sum
	if err := r.Record(entry); err != nil {
		r.DropBlob(blob)
		return PutResult{}, err
	}
	if err := rep.Commit(true); err != nil {
		return PutResult{}, DescribeWriteErr(t.Rel, err)
	}
	r.SealBlob(blob)
	return PutResult{Path: t.Rel, Size: int64(len(data)), ChangeSet: info.ChangeSet}, nil
}

// extAllowed reports whether rel ends in one of exts (with or without
// the dot, any case).
func extAllowed(rel string, exts []string) bool {
	ext := strings.ToLower(path.Ext(strings.TrimSpace(rel)))
	return ext != "" && slices.ContainsFunc(exts, func(e string) bool {
		e = strings.ToLower(strings.TrimSpace(e))
		return e == ext || "."+e == ext
	})
}

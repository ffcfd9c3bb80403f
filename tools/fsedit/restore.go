package fsedit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/agentcli/agent/tools/fsedit/backup"
)

// ErrNothingToUndo is returned by Undo when no change set is recorded.
var ErrNothingToUndo = errors.New("nothing to undo: no change sets in .agent/backups")

// ConflictError lists files that changed after the change set wrote them:
// restoring would throw those later changes away, so nothing is done
// unless the caller forces it.
type ConflictError struct {
	ChangeSet string
	Paths     []string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("change set %s: %s changed since it was written; restoring would lose those changes (force it to restore anyway)", e.ChangeSet, strings.Join(e.Paths, ", "))
}

// RestoredFile is what a restore did to one file.
type RestoredFile struct {
	Path   string
	Action string // "restored", "removed" or "unchanged"
}

// RestoreReport describes a finished undo or restore.
type RestoreReport struct {
	ChangeSet string // the change set that was reverted
	// Recorded is the change set holding the restore itself: undoing it
	// puts the files back as they were before the restore.
	Recorded string
	Files    []RestoredFile
}

// Undo reverts the last change set (which may itself be an undo).
func (r *Root) Undo(ctx context.Context, force bool) (RestoreReport, error) {
	st, err := r.Backups()
	if err != nil {
		return RestoreReport{}, err
	}
	sets, err := st.List()
	if err != nil {
		return RestoreReport{}, err
	}
	if len(sets) == 0 {
		return RestoreReport{}, ErrNothingToUndo
	}
	return r.restore(ctx, st, sets[len(sets)-1], force)
}

// Restore puts every file of change set id (or a unique prefix of it)
// back as it was before that change set. The restore is itself recorded
// as a change set, with backups, so it can be undone.
func (r *Root) Restore(ctx context.Context, id string, force bool) (RestoreReport, error) {
	st, err := r.Backups()
	if err != nil {
		return RestoreReport{}, err
	}
	cs, err := st.Find(id)
	if err != nil {
		return RestoreReport{}, err
	}
	return r.restore(ctx, st, cs, force)
}

// restoreStep is one file's planned restore.
type restoreStep struct {
	t      target
	before backup.Entry
	cur    string // current hash, "" when the file is absent
}

func (r *Root) restore(ctx context.Context, st *backup.Store, cs backup.ChangeSet, force bool) (RestoreReport, error) {
	rep := RestoreReport{ChangeSet: cs.ID, Recorded: NewChangeSetID(r.opts.Now())}
	after := cs.After()
	var (
		steps     []restoreStep
		conflicts []string
	)
	for _, e := range cs.Before() {
		t, err := r.resolve(e.Path)
		if err != nil {
			return rep, fmt.Errorf("restore %s: %w", e.Path, err)
		}
		cur, err := r.currentSum(t)
		if err != nil {
			return rep, err
		}
		want := ""
		if e.Existed {
			want = e.SHA256Before
		}
		if cur == want {
			rep.Files = append(rep.Files, RestoredFile{Path: e.Path, Action: "unchanged"})
			continue
		}
		if e.Existed && e.Blob == "" {
			return rep, fmt.Errorf("restore %s: no backup was kept of it (written by an older version with create_backup=false)", e.Path)
		}
		if cur != after[e.Path] && !force {
			conflicts = append(conflicts, e.Path)
		}
		steps = append(steps, restoreStep{t: t, before: e, cur: cur})
	}
	if len(conflicts) > 0 {
		return rep, &ConflictError{ChangeSet: cs.ID, Paths: conflicts}
	}
	for _, s := range steps {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		action, err := r.restoreFile(st, s, cs.ID, rep.Recorded)
		if err != nil {
			return rep, err
		}
		rep.Files = append(rep.Files, RestoredFile{Path: s.before.Path, Action: action})
	}
	return rep, nil
}

// currentSum hashes the file of t, or returns "" when it does not exist.
func (r *Root) currentSum(t target) (string, error) {
	if t.info == nil {
		return "", nil
	}
	f, _, err := r.openRead(t)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", t.rel, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", t.rel, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// restoreFile brings one file back to its state before the change set,
// backing up its current content first.
func (r *Root) restoreFile(st *backup.Store, s restoreStep, undoes, changeSet string) (string, error) {
	rel := s.t.rel
	dir, err := r.openDir(s.t.dir(), true)
	if err != nil {
		return "", fmt.Errorf("restore %s: %w", rel, err)
	}
	defer dir.Close()
	entry := backup.Entry{ChangeSet: changeSet, Undoes: undoes, Path: rel, SHA256Before: s.cur}
	var (
		old   *os.File
		oldFi fs.FileInfo
	)
	if s.cur != "" {
		if old, oldFi, err = openIn(dir, s.t.base(), os.O_RDONLY); err != nil {
			return "", fmt.Errorf("restore %s: %w", rel, err)
		}
		defer old.Close()
		blob, err := r.backupOld(changeSet, rel, old, oldFi, s.cur)
		if err != nil {
			return "", fmt.Errorf("restore %s: %w", rel, err)
		}
		entry.Existed, entry.Blob, entry.Mode, entry.Size = true, backup.BlobRel(blob), oldFi.Mode().Perm(), oldFi.Size()
	}

	if !s.before.Existed {
		entry.Op = backup.OpDelete
		if err := r.record(entry); err != nil {
			return "", err
		}
		if err := dir.Remove(s.t.base()); err != nil {
			return "", fmt.Errorf("remove %s: %w", rel, err)
		}
		return "removed", syncDir(dir)
	}

	src, err := st.OpenBlob(s.before)
	if err != nil {
		return "", fmt.Errorf("restore %s: open backup: %w", rel, err)
	}
	defer src.Close()
	mode := s.before.Mode
	if mode == 0 {
		mode = 0o644
	}
	w, err := newReplacement(dir, s.t.base(), mode)
	if err != nil {
		return "", describeWriteErr(rel, err)
	}
	defer w.abort()
	if _, err := io.Copy(w, src); err != nil {
		return "", fmt.Errorf("restore %s: read backup: %w", rel, err)
	}
	if oldFi != nil {
		w.chown(oldFi)
	}
	if _, err := w.flush(); err != nil {
		return "", describeWriteErr(rel, err)
	}
	if w.hash() != s.before.SHA256Before {
		return "", fmt.Errorf("restore %s: the backup does not match its recorded hash; it was left alone", rel)
	}
	entry.Op, entry.SHA256After = backup.OpRestore, w.hash()
	if err := r.record(entry); err != nil {
		return "", err
	}
	if err := w.commit(s.cur != ""); err != nil {
		return "", describeWriteErr(rel, err)
	}
	return "restored", nil
}

package sandbox

import (
	"cmp"
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
	"time"

	"github.com/agentcli/agent/tools/sandbox/backup"
)

// ErrNothingToUndo is returned by Undo when no run is left to revert.
var ErrNothingToUndo = errors.New("nothing to undo: no change sets in .agent/backups")

// ErrNothingToRedo is returned by Redo when no undone run can be put
// back (none was undone, or the agent wrote since).
var ErrNothingToRedo = errors.New("nothing to redo")

// ConflictError lists files that changed after the change set (or run)
// wrote them: restoring would throw those later changes away, so nothing
// is done unless the caller forces it.
type ConflictError struct {
	ChangeSet string
	Run       string // set for an undo or redo of a run
	Paths     []string
}

func (e *ConflictError) Error() string {
	what := "change set " + e.ChangeSet
	if e.Run != "" {
		what = "run " + e.Run
	}
	return fmt.Sprintf("%s: %s changed since it was written; restoring would lose those changes (force it to restore anyway)", what, strings.Join(e.Paths, ", "))
}

// UnsignedError lists the files of a change set (or run) whose backup
// records this user's agent did not sign: an older version wrote them
// (before the manifest was signed), or they came with the project (a
// cloned repository can ship a .agent/backups of its own). Their content
// is not put back unless the caller forces it; Blobs are where it is
// kept, to look at first.
type UnsignedError struct {
	ChangeSet string
	Run       string // set for an undo or redo of a run
	Paths     []string
	Blobs     []string // project paths of the content a restore would write
}

func (e *UnsignedError) Error() string {
	what := "change set " + e.ChangeSet
	if e.Run != "" {
		what = "run " + e.Run
	}
	msg := fmt.Sprintf("%s: the backups of %s were not written by your agent (an older version wrote them, or they came with the project), so they are not restored", what, strings.Join(e.Paths, ", "))
	if len(e.Blobs) > 0 {
		msg += " (their content: " + strings.Join(e.Blobs, ", ") + ")"
	}
	return msg
}

// unsigned is the *UnsignedError of the entries of cs not Verified, or nil.
func unsigned(cs backup.ChangeSet) error {
	var e *UnsignedError
	seen := map[string]bool{}
	for _, en := range cs.Entries {
		if en.Verified {
			continue
		}
		if e == nil {
			e = &UnsignedError{ChangeSet: cs.ID}
		}
		if !seen[en.Path] {
			seen[en.Path] = true
			e.Paths = append(e.Paths, en.Path)
		}
		if en.Blob != "" {
			e.Blobs = append(e.Blobs, path.Join(backup.Dir, en.Blob))
		}
	}
	if e == nil {
		return nil
	}
	return e
}

// RestoredFile is what a restore did to one file.
type RestoredFile struct {
	Path   string
	Action string // "restored", "removed" or "unchanged"
}

// RestoreReport describes a finished undo, redo or restore.
type RestoreReport struct {
	ChangeSet string // the change set that was reverted (a restore)
	// Run is the run undone or redone, Session the session it was part of.
	Run, Session string
	// Recorded is the change set holding the restore itself: undoing it
	// puts the files back as they were before the restore.
	Recorded string
	Files    []RestoredFile
	// FoldersRemoved are the folders the reverted writes made and left
	// empty, which the undo removed; FoldersMade those a redo or restore
	// made again for the files it put back.
	FoldersRemoved, FoldersMade []string
}

// Changed returns the paths the restore actually changed.
func (rep RestoreReport) Changed() []string {
	var out []string
	for _, f := range rep.Files {
		if f.Action != "unchanged" {
			out = append(out, f.Path)
		}
	}
	return out
}

// Undo reverts the last run not yet undone: every change set of it, so
// the files are as they were before that user message. Called again, it
// reverts the run before. The undo is recorded (with backups of what it
// replaced) so that Redo can put the run back.
func (r *Root) Undo(ctx context.Context, force bool) (RestoreReport, error) {
	st, h, err := r.history()
	if err != nil {
		return RestoreReport{}, err
	}
	if len(h.Done) == 0 {
		return RestoreReport{}, ErrNothingToUndo
	}
	return r.undoRun(ctx, st, h.Done[len(h.Done)-1], force)
}

// Redo puts back the run undone most recently, as the undo found it. A
// write by the agent after the undo leaves nothing to redo.
func (r *Root) Redo(ctx context.Context, force bool) (RestoreReport, error) {
	st, h, err := r.history()
	if err != nil {
		return RestoreReport{}, err
	}
	if len(h.Undone) == 0 {
		return RestoreReport{}, ErrNothingToRedo
	}
	u := h.Undone[len(h.Undone)-1]
	tag := backup.Entry{ChangeSet: NewChangeSetID(r.opts.Now()), RedoRun: u.Run.ID, Session: u.Run.Session}
	p, err := r.plan(u.Undo, force, nil)
	if err != nil {
		return RestoreReport{Run: u.Run.ID}, runConflict(err, u.Run.ID)
	}
	rep, err := r.apply(ctx, st, p, tag, nil)
	rep.Run, rep.Session = u.Run.ID, u.Run.Session
	return rep, err
}

// NextRedo names what Redo would put back: the run, its session and
// when it was undone. ErrNothingToRedo when there is none.
func (r *Root) NextRedo() (run, session string, undoneAt time.Time, err error) {
	_, h, err := r.history()
	if err != nil {
		return "", "", time.Time{}, err
	}
	if len(h.Undone) == 0 {
		return "", "", time.Time{}, ErrNothingToRedo
	}
	u := h.Undone[len(h.Undone)-1]
	return u.Run.ID, u.Run.Session, u.Undo.Time, nil
}

// UndoRuns reverts those of the runs ids that are still in effect,
// newest first (a rewind to before the first of them). It checks every
// file of every run before changing any, so a conflict leaves all as it
// was. Runs already undone are left out of the reports.
func (r *Root) UndoRuns(ctx context.Context, ids []string, force bool) ([]RestoreReport, error) {
	st, h, err := r.history()
	if err != nil {
		return nil, err
	}
	var runs []backup.Run
	for i := len(h.Done) - 1; i >= 0; i-- {
		if slices.Contains(ids, h.Done[i].ID) {
			runs = append(runs, h.Done[i])
		}
	}
	// Check all first, each run against the state the undos before it
	// leave.
	sim := map[string]string{}
	for _, run := range runs {
		if _, err := r.plan(run.Whole(), force, sim); err != nil {
			return nil, runConflict(err, run.ID)
		}
	}
	var reps []RestoreReport
	for _, run := range runs {
		rep, err := r.undoRun(ctx, st, run, force)
		if err != nil {
			return reps, err
		}
		reps = append(reps, rep)
	}
	return reps, nil
}

// runConflict names the run in a conflict (or unsigned backups) found
// while undoing or redoing it.
func runConflict(err error, run string) error {
	var ce *ConflictError
	if errors.As(err, &ce) {
		ce.Run = run
	}
	var ue *UnsignedError
	if errors.As(err, &ue) {
		ue.Run = run
	}
	return err
}

func (r *Root) history() (*backup.Store, backup.History, error) {
	st, err := r.Backups()
	if err != nil {
		return nil, backup.History{}, err
	}
	h, err := st.History()
	return st, h, err
}

func (r *Root) undoRun(ctx context.Context, st *backup.Store, run backup.Run, force bool) (RestoreReport, error) {
	whole := run.Whole()
	tag := backup.Entry{ChangeSet: NewChangeSetID(r.opts.Now()), UndoRun: run.ID, Session: run.Session}
	p, err := r.plan(whole, force, nil)
	if err != nil {
		return RestoreReport{Run: run.ID}, runConflict(err, run.ID)
	}
	var dirs []string
	for _, e := range whole.Entries {
		dirs = append(dirs, e.Dirs...)
	}
	rep, err := r.apply(ctx, st, p, tag, dirs)
	rep.Run, rep.Session = run.ID, run.Session
	return rep, err
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
	p, err := r.plan(cs, force, nil)
	if err != nil {
		return RestoreReport{ChangeSet: cs.ID}, err
	}
	var dirs []string
	for _, e := range cs.Entries {
		dirs = append(dirs, e.Dirs...)
	}
	rep, err := r.apply(ctx, st, p, backup.Entry{ChangeSet: NewChangeSetID(r.opts.Now()), Undoes: cs.ID}, dirs)
	rep.ChangeSet = cs.ID
	return rep, err
}

// restoreStep is one file's planned restore.
type restoreStep struct {
	t      Target
	before backup.Entry
	cur    string // current hash, "" when the file is absent
}

// restorePlan is what reverting a change set will do.
type restorePlan struct {
	steps []restoreStep
	// unchanged are the files already as wanted, with their hash.
	unchanged []backup.Entry
}

// plan works out how to bring every file of cs back to its state before
// cs, refusing (a *ConflictError) when a file changed after cs wrote it,
// and (an *UnsignedError, first) when a record of cs is not signed by
// this user's key, unless force. sim, when not nil, stands in for the files' current
// hashes (a path it lacks is read from disk) and is updated as if the
// plan had run, so several plans can be checked in a row.
func (r *Root) plan(cs backup.ChangeSet, force bool, sim map[string]string) (restorePlan, error) {
	var (
		p         restorePlan
		conflicts []string
	)
	if !force {
		if err := unsigned(cs); err != nil {
			return p, err
		}
	}
	after := cs.After()
	for _, e := range cs.Before() {
		t, err := r.Resolve(e.Path)
		if err != nil {
			return p, fmt.Errorf("restore %s: %w", e.Path, err)
		}
		cur, known := sim[e.Path]
		if !known {
			if cur, err = r.currentSum(t); err != nil {
				return p, err
			}
		}
		want := ""
		if e.Existed {
			want = e.SHA256Before
		}
		if sim != nil {
			sim[e.Path] = want
		}
		if cur == want {
			p.unchanged = append(p.unchanged, backup.Entry{Path: e.Path, Existed: want != "", SHA256Before: want, SHA256After: want})
			continue
		}
		if e.Existed && e.Blob == "" {
			return p, fmt.Errorf("restore %s: no backup was kept of it (written by an older version with create_backup=false)", e.Path)
		}
		if cur != after[e.Path] && !force {
			conflicts = append(conflicts, e.Path)
		}
		p.steps = append(p.steps, restoreStep{t: t, before: e, cur: cur})
	}
	if len(conflicts) > 0 {
		return p, &ConflictError{ChangeSet: cs.ID, Paths: conflicts}
	}
	return p, nil
}

// apply carries out a plan, recording each file's restore with the ids
// of tag, then removes those of dirs (folders a reverted write made)
// that are left empty.
func (r *Root) apply(ctx context.Context, st *backup.Store, p restorePlan, tag backup.Entry, dirs []string) (RestoreReport, error) {
	rep := RestoreReport{Recorded: tag.ChangeSet}
	for _, u := range p.unchanged {
		rep.Files = append(rep.Files, RestoredFile{Path: u.Path, Action: "unchanged"})
	}
	if len(p.steps) == 0 && (tag.UndoRun != "" || tag.RedoRun != "") {
		// Nothing to change, but the undo (or redo) still happened: it
		// is recorded, so the next undo goes one run further back.
		for _, u := range p.unchanged {
			e := tag
			e.Path, e.Op, e.Existed, e.SHA256Before, e.SHA256After = u.Path, backup.OpUnchanged, u.Existed, u.SHA256Before, u.SHA256After
			if err := r.Record(e); err != nil {
				return rep, err
			}
		}
	}
	for _, s := range p.steps {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		action, made, err := r.restoreFile(st, s, tag)
		if err != nil {
			return rep, err
		}
		rep.Files = append(rep.Files, RestoredFile{Path: s.before.Path, Action: action})
		rep.FoldersMade = append(rep.FoldersMade, made...)
	}
	rep.FoldersRemoved = r.removeEmptyDirs(dirs)
	return rep, nil
}

// removeEmptyDirs removes the folders of dirs that are empty, deepest
// first, and returns those it removed. A folder that holds anything, or
// is no longer a folder, stays: only what the agent made and left empty
// goes.
func (r *Root) removeEmptyDirs(dirs []string) []string {
	root, err := r.Handle()
	if err != nil || len(dirs) == 0 {
		return nil
	}
	dirs = slices.Clone(dirs)
	slices.SortFunc(dirs, func(a, b string) int {
		return cmp.Or(cmp.Compare(strings.Count(b, "/"), strings.Count(a, "/")), cmp.Compare(b, a))
	})
	dirs = slices.Compact(dirs)
	var removed []string
	for _, d := range dirs {
		fi, err := root.Lstat(d)
		if err != nil || !fi.IsDir() {
			continue
		}
		if f, err := root.Open(d); err == nil {
			names, _ := f.Readdirnames(1)
			f.Close()
			if len(names) > 0 {
				continue
			}
		}
		if root.Remove(d) == nil {
			removed = append(removed, d)
		}
	}
	slices.Reverse(removed)
	return removed
}

// currentSum hashes the file of t, or returns "" when it does not exist.
func (r *Root) currentSum(t Target) (string, error) {
	if t.Info == nil {
		return "", nil
	}
	f, _, err := r.OpenRead(t)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", t.Rel, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", t.Rel, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// restoreFile brings one file back to its state before the change set,
// backing up its current content first; the record carries the ids of
// tag. made are the folders it had to create for the file.
func (r *Root) restoreFile(st *backup.Store, s restoreStep, tag backup.Entry) (string, []string, error) {
	rel := s.t.Rel
	changeSet := tag.ChangeSet
	dir, err := r.OpenDir(s.t.Dir(), s.before.Existed)
	if err != nil {
		return "", nil, fmt.Errorf("restore %s: %w", rel, err)
	}
	defer dir.Close()
	entry := tag
	entry.Path, entry.SHA256Before, entry.Dirs = rel, s.cur, dir.Made
	var (
		old   *os.File
		oldFi fs.FileInfo
		blob  string
	)
	if s.cur != "" {
		if old, oldFi, err = OpenIn(dir, s.t.Base(), os.O_RDONLY); err != nil {
			return "", nil, fmt.Errorf("restore %s: %w", rel, err)
		}
		defer old.Close()
		blob, err = r.BackupOld(changeSet, rel, old, oldFi, s.cur)
		if err != nil {
			return "", nil, fmt.Errorf("restore %s: %w", rel, err)
		}
		entry.Existed, entry.Blob, entry.Mode, entry.Size = true, backup.BlobRel(blob), oldFi.Mode().Perm(), oldFi.Size()
	}

	if !s.before.Existed {
		entry.Op = backup.OpDelete
		if err := r.Record(entry); err != nil {
			return "", nil, err
		}
		if err := dir.Remove(s.t.Base()); err != nil {
			return "", nil, fmt.Errorf("remove %s: %w", rel, err)
		}
		r.SealBlob(blob)
		return "removed", nil, syncDir(dir)
	}

	src, err := st.OpenBlob(s.before)
	if err != nil {
		return "", nil, fmt.Errorf("restore %s: open backup: %w", rel, err)
	}
	defer src.Close()
	// The permission bits only: a record asking for setuid, setgid or
	// sticky (the agent never writes one) does not get them.
	mode := s.before.Mode.Perm()
	if mode == 0 {
		mode = 0o644
	}
	w, err := NewReplacement(dir, s.t.Base(), mode)
	if err != nil {
		return "", nil, DescribeWriteErr(rel, err)
	}
	defer w.Abort()
	if _, err := io.Copy(w, src); err != nil {
		return "", nil, fmt.Errorf("restore %s: read backup: %w", rel, err)
	}
	if oldFi != nil {
		w.Chown(oldFi)
	}
	if _, err := w.Flush(); err != nil {
		return "", nil, DescribeWriteErr(rel, err)
	}
	if w.Hash() != s.before.SHA256Before {
		return "", nil, fmt.Errorf("restore %s: the backup does not match its recorded hash; it was left alone", rel)
	}
	entry.Op, entry.SHA256After = backup.OpRestore, w.Hash()
	if err := r.Record(entry); err != nil {
		return "", nil, err
	}
	if err := w.Commit(s.cur != ""); err != nil {
		return "", nil, DescribeWriteErr(rel, err)
	}
	r.SealBlob(blob)
	return "restored", dir.Made, nil
}

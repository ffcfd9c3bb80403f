package backup

import (
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/agentcli/agent/internal/atomicfile"
)

// ErrNotFound is returned for a change set id that matches none.
var ErrNotFound = errors.New("no such change set")

// ErrAmbiguous is returned for a change set id prefix that matches more
// than one.
var ErrAmbiguous = errors.New("ambiguous change set prefix")

// ChangeSet is everything one model reply wrote (or one undo restored).
type ChangeSet struct {
	ID      string
	Time    time.Time // of its last write
	Session string
	// Run is the run the change set belongs to (its own id in old
	// manifests); UndoRun or RedoRun, when set, the run it reverted or
	// put back.
	Run, UndoRun, RedoRun string
	// Undoes names the change set this one reverted, if it is a restore.
	Undoes  string
	Entries []Entry // in the order written
	last    int     // index in the manifest of its last entry
}

// Files returns the paths the change set wrote, each once, in order.
func (c ChangeSet) Files() []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range c.Entries {
		if !seen[e.Path] {
			seen[e.Path] = true
			out = append(out, e.Path)
		}
	}
	return out
}

// FileSummary lists up to n of the paths the change set wrote and counts
// the rest: "a.md, b.md (+3 more)".
func (c ChangeSet) FileSummary(n int) string {
	files := c.Files()
	if len(files) <= n {
		return strings.Join(files, ", ")
	}
	return fmt.Sprintf("%s (+%d more)", strings.Join(files[:n], ", "), len(files)-n)
}

// Verified reports whether every entry of the change set is signed by
// the store's key: this user's agent wrote it all.
func (c ChangeSet) Verified() bool {
	for _, e := range c.Entries {
		if !e.Verified {
			return false
		}
	}
	return true
}

// Size is the bytes its backups hold.
func (c ChangeSet) Size() int64 {
	var n int64
	for _, e := range c.Entries {
		if e.Blob != "" {
			n += e.Size
		}
	}
	return n
}

// Before returns, for each file, the first entry of the change set: the
// state the file was in before the change set touched it.
func (c ChangeSet) Before() []Entry {
	var out []Entry
	seen := map[string]bool{}
	for _, e := range c.Entries {
		if !seen[e.Path] {
			seen[e.Path] = true
			out = append(out, e)
		}
	}
	return out
}

// After returns the SHA-256 each file had when the change set was done
// ("" for a file it removed).
func (c ChangeSet) After() map[string]string {
	out := map[string]string{}
	for _, e := range c.Entries {
		out[e.Path] = e.SHA256After
	}
	return out
}

// Group sorts entries into change sets, oldest first (by their last write).
func Group(entries []Entry) []ChangeSet {
	byID := map[string]*ChangeSet{}
	var order []*ChangeSet
	for i, e := range entries {
		c := byID[e.ChangeSet]
		if c == nil {
			c = &ChangeSet{ID: e.ChangeSet, Session: e.Session, Undoes: e.Undoes, Run: e.Run, UndoRun: e.UndoRun, RedoRun: e.RedoRun}
			if c.Run == "" {
				c.Run = e.ChangeSet
			}
			byID[e.ChangeSet] = c
			order = append(order, c)
		}
		c.Entries = append(c.Entries, e)
		c.Time = e.Time
		c.last = i
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].last < order[j].last })
	out := make([]ChangeSet, len(order))
	for i, c := range order {
		out[i] = *c
	}
	return out
}

// List returns the change sets, oldest first.
func (s *Store) List() ([]ChangeSet, error) {
	es, err := s.Entries()
	if err != nil {
		return nil, err
	}
	return Group(es), nil
}

// Find returns the change set whose id is id or starts with it (when that
// prefix is unique).
func (s *Store) Find(id string) (ChangeSet, error) {
	sets, err := s.List()
	if err != nil {
		return ChangeSet{}, err
	}
	var found []ChangeSet
	for _, c := range sets {
		if c.ID == id {
			return c, nil
		}
		if id != "" && strings.HasPrefix(c.ID, id) {
			found = append(found, c)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return ChangeSet{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	default:
		return ChangeSet{}, fmt.Errorf("%w: %s matches %d change sets; give more of the id", ErrAmbiguous, id, len(found))
	}
}

// Prune drops change sets older than the retention age, then the oldest
// ones while the backups exceed the size limit. The newest change set,
// and the rest of its run, are always kept, so the last message's writes
// can be undone whatever their size. It
// returns how many change sets it dropped.
func (s *Store) Prune() (int, error) {
	if _, err := s.root.Lstat(path.Join(Dir, manifestName)); err != nil {
		return 0, nil // nothing recorded: nothing to prune, and no folder to make
	}
	unlock, err := s.lock()
	if err != nil {
		return 0, err
	}
	defer unlock()
	entries, err := s.Entries()
	if err != nil || len(entries) == 0 {
		return 0, err
	}
	sets := Group(entries)
	drop := map[string]bool{}
	now := s.now()
	var total int64
	for _, c := range sets {
		total += c.Size()
	}
	last := sets[len(sets)-1]
	for _, c := range sets[:len(sets)-1] {
		if c.Run == last.Run {
			continue // the last run stays whole, so it can be undone
		}
		tooOld := s.keep.MaxAge > 0 && now.Sub(c.Time) > s.keep.MaxAge
		tooBig := s.keep.MaxBytes > 0 && total > s.keep.MaxBytes
		if tooOld || tooBig {
			drop[c.ID] = true
			total -= c.Size()
		}
	}
	if len(drop) == 0 {
		return 0, nil
	}
	var keep []Entry
	for _, e := range entries {
		if !drop[e.ChangeSet] {
			keep = append(keep, e)
		}
	}
	if err := s.rewriteManifest(keep); err != nil {
		return 0, err
	}
	// The manifest no longer names them: a crash here leaves only
	// unreferenced blobs, never a record without its blob.
	for id := range drop {
		if err := s.root.RemoveAll(path.Join(Dir, safeName(id))); err != nil {
			return len(drop), fmt.Errorf("remove old backups: %w", err)
		}
	}
	return len(drop), nil
}

// rewriteManifest replaces the manifest atomically. The caller holds the lock.
func (s *Store) rewriteManifest(es []Entry) error {
	err := atomicfile.WriteFileIn(s.root, path.Join(Dir, manifestName), 0o600, func(w io.Writer) error {
		for _, e := range es {
			if err := s.writeLine(w, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("write backup manifest: %w", err)
	}
	return nil
}

package backup

import (
	"slices"
	"time"
)

// Run is everything the agent wrote for one user message: the change
// sets of all the model replies of that turn, oldest first.
type Run struct {
	ID      string
	Session string
	Time    time.Time // of its last write
	Sets    []ChangeSet
}

// Entries returns the entries of all its change sets, in the order written.
func (r Run) Entries() []Entry {
	var out []Entry
	for _, c := range r.Sets {
		out = append(out, c.Entries...)
	}
	return out
}

// Whole returns the run as one change set (with the run's id): its
// Before and After are the state of each file before and after the whole
// run.
func (r Run) Whole() ChangeSet {
	return ChangeSet{ID: r.ID, Time: r.Time, Session: r.Session, Run: r.ID, Entries: r.Entries()}
}

// Undone is a run that an undo reverted and that a redo can put back.
type Undone struct {
	Run Run
	// Undo is the change set of the undo: reverting it is the redo.
	Undo ChangeSet
}

// History is the undo state of the project, replayed from the manifest.
type History struct {
	// Done are the runs in effect, oldest first: undo takes the last.
	Done []Run
	// Undone are the runs that can be redone, oldest first: redo takes
	// the last. A new write by the agent empties it.
	Undone []Undone
}

// Replay works out the undo state from the change sets, oldest first.
// An agent's write makes or extends a run and clears what could be
// redone; an undo moves its run from Done to Undone, a redo back. A
// restore of one change set (agent backups restore) changes neither,
// except in manifests written before runs existed, whose undo was such a
// restore: there it reverts the run of the change set it names, or, when
// it names an undo, puts that undo's run back.
func Replay(sets []ChangeSet) History {
	var h History
	for _, c := range sets {
		switch {
		case c.UndoRun != "":
			if i := h.done(c.UndoRun); i >= 0 {
				h.Undone = append(h.Undone, Undone{Run: h.Done[i], Undo: c})
				h.Done = append(h.Done[:i], h.Done[i+1:]...)
			}
		case c.RedoRun != "":
			h.redone(c.RedoRun, &c)
		case c.Undoes != "":
			if i := h.done(c.Undoes); i >= 0 && h.Done[i].ID == h.Done[i].Sets[0].ID {
				h.Undone = append(h.Undone, Undone{Run: h.Done[i], Undo: c})
				h.Done = append(h.Done[:i], h.Done[i+1:]...)
				continue
			}
			for _, u := range h.Undone {
				if u.Undo.ID == c.Undoes {
					h.redone(u.Run.ID, &c)
					break
				}
			}
		default:
			h.Undone = nil
			r := Run{ID: c.Run, Session: c.Session}
			if i := h.done(c.Run); i >= 0 {
				// A later reply of the same run (moved last: undo
				// takes the run written last).
				r = h.Done[i]
				h.Done = append(h.Done[:i], h.Done[i+1:]...)
			}
			r.Sets, r.Time = append(r.Sets, c), c.Time
			h.Done = append(h.Done, r)
		}
	}
	return h
}

// done returns the index in Done of run id, or -1.
func (h *History) done(id string) int {
	for i := len(h.Done) - 1; i >= 0; i-- {
		if h.Done[i].ID == id {
			return i
		}
	}
	return -1
}

// redone moves run id from Undone back to the end of Done. The folders
// an undo of it removes are from then on those the redo made: one made
// by someone else in between was there before the redo, and stays.
func (h *History) redone(id string, redo *ChangeSet) {
	for i := len(h.Undone) - 1; i >= 0; i-- {
		if h.Undone[i].Run.ID == id {
			h.Done = append(h.Done, h.Undone[i].Run.withDirs(redo))
			h.Undone = append(h.Undone[:i], h.Undone[i+1:]...)
			return
		}
	}
}

// withDirs returns a copy of the run whose entries name as made only the
// folders redo made, each on the first entry of its file.
func (r Run) withDirs(redo *ChangeSet) Run {
	made := map[string][]string{}
	for _, e := range redo.Entries {
		made[e.Path] = append(made[e.Path], e.Dirs...)
	}
	sets := make([]ChangeSet, len(r.Sets))
	for i, c := range r.Sets {
		c.Entries = slices.Clone(c.Entries)
		for j := range c.Entries {
			e := &c.Entries[j]
			e.Dirs = made[e.Path]
			delete(made, e.Path)
		}
		sets[i] = c
	}
	r.Sets = sets
	return r
}

// History replays the manifest.
func (s *Store) History() (History, error) {
	sets, err := s.List()
	if err != nil {
		return History{}, err
	}
	return Replay(sets), nil
}

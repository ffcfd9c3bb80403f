package backup

import "testing"

func ids(runs []Run) []string {
	var out []string
	for _, r := range runs {
		out = append(out, r.ID)
	}
	return out
}

// Old manifests have no run ids: each change set is its own run, and
// their undo (a restore of the last change set) counts as undoing it, an
// undo of that undo as a redo.
func TestReplayOldManifest(t *testing.T) {
	es := []Entry{
		{ChangeSet: "a", Path: "x"},
		{ChangeSet: "b", Path: "x"},
		{ChangeSet: "u1", Undoes: "b", Path: "x"},
	}
	h := Replay(Group(es))
	if got := ids(h.Done); len(got) != 1 || got[0] != "a" {
		t.Fatalf("done = %v, want [a]", got)
	}
	if len(h.Undone) != 1 || h.Undone[0].Run.ID != "b" {
		t.Fatalf("undone = %+v, want b", h.Undone)
	}
	es = append(es, Entry{ChangeSet: "u2", Undoes: "u1", Path: "x"})
	h = Replay(Group(es))
	if got := ids(h.Done); len(got) != 2 || got[1] != "b" || len(h.Undone) != 0 {
		t.Fatalf("after the undo of the undo: done = %v undone = %d", got, len(h.Undone))
	}
}

// Change sets of one run group together; undo, redo and a new write move
// runs between the lists.
func TestReplayRuns(t *testing.T) {
	es := []Entry{
		{ChangeSet: "s.1", Run: "s.r1", Path: "x"},
		{ChangeSet: "s.2", Run: "s.r2", Path: "x"},
		{ChangeSet: "s.3", Run: "s.r2", Path: "y"},
		{ChangeSet: "u1", UndoRun: "s.r2", Path: "x"},
		{ChangeSet: "u2", UndoRun: "s.r1", Path: "x"},
		{ChangeSet: "r1", RedoRun: "s.r1", Path: "x"},
	}
	h := Replay(Group(es))
	if got := ids(h.Done); len(got) != 1 || got[0] != "s.r1" {
		t.Fatalf("done = %v", got)
	}
	if len(h.Undone) != 1 || h.Undone[0].Run.ID != "s.r2" || len(h.Undone[0].Run.Sets) != 2 || h.Undone[0].Undo.ID != "u1" {
		t.Fatalf("undone = %+v", h.Undone)
	}
	es = append(es, Entry{ChangeSet: "s.4", Run: "s.r3", Path: "z"})
	h = Replay(Group(es))
	if got := ids(h.Done); len(got) != 2 || len(h.Undone) != 0 {
		t.Fatalf("a new write: done = %v, undone = %d (want nothing to redo)", got, len(h.Undone))
	}
}

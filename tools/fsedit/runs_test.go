package fsedit

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentcli/agent/tools/sandbox"
)

func exists(t *testing.T, p string) bool {
	t.Helper()
	_, err := os.Lstat(p)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return err == nil
}

// A run is every change set of one user message: undo reverts them all
// at once, then the run before; redo goes forward again in order.
func TestUndoWalksBackByRun(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "a0\n"})
	wantOK(t, p.read("a.md"))
	p.turn("run1", "s1.1", func() { wantOK(t, p.write("rewrite", "a.md", "a1\n")) })
	p.turn("run2", "s1.2", func() { wantOK(t, p.write("rewrite", "a.md", "a2\n")) })
	p.turn("run2", "s1.3", func() { wantOK(t, p.write("create", "b.md", "b\n")) })

	st, err := p.root.Backups()
	if err != nil {
		t.Fatal(err)
	}
	h, err := st.History()
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Done) != 2 || h.Done[1].ID != "run2" || len(h.Done[1].Sets) != 2 {
		t.Fatalf("runs = %+v, want run1 and run2 with two change sets", h.Done)
	}

	rep, err := p.root.Undo(t.Context(), false)
	if err != nil || rep.Run != "run2" {
		t.Fatalf("first undo = %+v, %v", rep, err)
	}
	if p.content("a.md") != "a1\n" || exists(t, filepath.Join(p.dir, "b.md")) {
		t.Fatalf("after undoing run2: a=%q, b.md still there", p.content("a.md"))
	}
	if rep, err = p.root.Undo(t.Context(), false); err != nil || rep.Run != "run1" {
		t.Fatalf("second undo = %+v, %v", rep, err)
	}
	if p.content("a.md") != "a0\n" {
		t.Fatalf("after undoing run1: a=%q", p.content("a.md"))
	}
	if _, err := p.root.Undo(t.Context(), false); !errors.Is(err, sandbox.ErrNothingToUndo) {
		t.Fatalf("third undo = %v, want nothing to undo", err)
	}

	if rep, err = p.root.Redo(t.Context(), false); err != nil || rep.Run != "run1" {
		t.Fatalf("first redo = %+v, %v", rep, err)
	}
	if p.content("a.md") != "a1\n" {
		t.Fatalf("after redoing run1: a=%q", p.content("a.md"))
	}
	if rep, err = p.root.Redo(t.Context(), false); err != nil || rep.Run != "run2" {
		t.Fatalf("second redo = %+v, %v", rep, err)
	}
	if p.content("a.md") != "a2\n" || p.content("b.md") != "b\n" {
		t.Fatalf("after redoing run2: a=%q b=%q", p.content("a.md"), p.content("b.md"))
	}
	// A redone run can be undone again.
	if rep, err = p.root.Undo(t.Context(), false); err != nil || rep.Run != "run2" {
		t.Fatalf("undo after redo = %+v, %v", rep, err)
	}
	if p.content("a.md") != "a1\n" {
		t.Fatalf("after undoing run2 again: a=%q", p.content("a.md"))
	}
}

// A write by the agent after an undo leaves nothing to redo.
func TestNewWriteClearsRedo(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "a0\n"})
	wantOK(t, p.read("a.md"))
	p.turn("run1", "s1.1", func() { wantOK(t, p.write("rewrite", "a.md", "a1\n")) })
	if _, err := p.root.Undo(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	wantOK(t, p.read("a.md"))
	p.turn("run2", "s1.2", func() { wantOK(t, p.write("create", "c.md", "c\n")) })
	if _, err := p.root.Redo(t.Context(), false); !errors.Is(err, sandbox.ErrNothingToRedo) {
		t.Fatalf("redo after a new write = %v, want nothing to redo", err)
	}
	if p.content("a.md") != "a0\n" {
		t.Errorf("a.md = %q", p.content("a.md"))
	}
}

// Undo and redo refuse when someone changed a file since; nothing of the
// run is touched, and --force backs the change up first.
func TestUndoRedoConflict(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "a0\n", "b.md": "b0\n"})
	wantOK(t, p.read("a.md"))
	wantOK(t, p.read("b.md"))
	p.turn("run1", "s1.1", func() {
		wantOK(t, p.write("rewrite", "a.md", "a1\n"))
		wantOK(t, p.write("rewrite", "b.md", "b1\n"))
	})
	writeFile(t, filepath.Join(p.dir, "b.md"), "mine\n")
	_, err := p.root.Undo(t.Context(), false)
	var ce *sandbox.ConflictError
	if !errors.As(err, &ce) || ce.Run != "run1" || len(ce.Paths) != 1 || ce.Paths[0] != "b.md" {
		t.Fatalf("undo = %v, want a conflict on b.md", err)
	}
	if p.content("a.md") != "a1\n" || p.content("b.md") != "mine\n" {
		t.Fatalf("refused undo changed files: a=%q b=%q", p.content("a.md"), p.content("b.md"))
	}
	// Put it back, undo, then change a file before the redo.
	writeFile(t, filepath.Join(p.dir, "b.md"), "b1\n")
	if _, err := p.root.Undo(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(p.dir, "a.md"), "edited\n")
	if _, err := p.root.Redo(t.Context(), false); !errors.As(err, &ce) || ce.Paths[0] != "a.md" {
		t.Fatalf("redo = %v, want a conflict on a.md", err)
	}
	if p.content("a.md") != "edited\n" || p.content("b.md") != "b0\n" {
		t.Fatalf("refused redo changed files")
	}
	rep, err := p.root.Redo(t.Context(), true)
	if err != nil {
		t.Fatal(err)
	}
	if p.content("a.md") != "a1\n" || p.content("b.md") != "b1\n" {
		t.Fatalf("forced redo: a=%q b=%q", p.content("a.md"), p.content("b.md"))
	}
	// The overwritten edit is kept: restoring the redo's change set
	// brings it back.
	if _, err := p.root.Restore(t.Context(), rep.Recorded, true); err != nil {
		t.Fatal(err)
	}
	if p.content("a.md") != "edited\n" {
		t.Errorf("edit lost by the forced redo: a=%q", p.content("a.md"))
	}
}

// Folders the run made are removed when empty after its undo and made
// again by the redo; folders that were there before stay, even empty.
func TestUndoRemovesEmptyFoldersItMade(t *testing.T) {
	p := newProject(t, nil)
	if err := os.Mkdir(filepath.Join(p.dir, "old"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(p.dir, "kept"), 0o755); err != nil {
		t.Fatal(err)
	}
	p.turn("run1", "s1.1", func() {
		wantOK(t, p.write("create", "new/deep/x.md", "x\n"))
		wantOK(t, p.write("create", "old/y.md", "y\n"))
		wantOK(t, p.write("create", "kept/sub/z.md", "z\n"))
	})
	// Someone else's file keeps its folder.
	writeFile(t, filepath.Join(p.dir, "kept/sub/theirs.md"), "t\n")

	rep, err := p.root.Undo(t.Context(), false)
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"new", "old/y.md", "kept/sub/z.md"} {
		if exists(t, filepath.Join(p.dir, gone)) {
			t.Errorf("%s still there after undo", gone)
		}
	}
	for _, there := range []string{"old", "kept/sub/theirs.md"} {
		if !exists(t, filepath.Join(p.dir, there)) {
			t.Errorf("%s removed by undo", there)
		}
	}
	if len(rep.FoldersRemoved) != 2 || rep.FoldersRemoved[0] != "new" || rep.FoldersRemoved[1] != "new/deep" {
		t.Errorf("removed folders = %v, want [new new/deep]", rep.FoldersRemoved)
	}

	rep, err = p.root.Redo(t.Context(), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.FoldersMade) != 2 || rep.FoldersMade[0] != "new" {
		t.Errorf("made folders = %v, want [new new/deep]", rep.FoldersMade)
	}
	if p.content("new/deep/x.md") != "x\n" || p.content("old/y.md") != "y\n" {
		t.Fatal("redo did not bring the files back")
	}
	// Undo after the redo removes the folders again.
	if _, err := p.root.Undo(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	if exists(t, filepath.Join(p.dir, "new")) || !exists(t, filepath.Join(p.dir, "old")) {
		t.Error("second undo: new/ should go, old/ stay")
	}
}

// A rewind undoes several runs, but checks them all first: a conflict in
// any leaves every file as it was.
func TestUndoRunsChecksAllFirst(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "a0\n", "b.md": "b0\n"})
	wantOK(t, p.read("a.md"))
	wantOK(t, p.read("b.md"))
	p.turn("run1", "s1.1", func() { wantOK(t, p.write("rewrite", "a.md", "a1\n")) })
	p.turn("run2", "s1.2", func() { wantOK(t, p.write("rewrite", "b.md", "b1\n")) })
	p.turn("run3", "s1.3", func() { wantOK(t, p.write("rewrite", "a.md", "a3\n")) })
	writeFile(t, filepath.Join(p.dir, "b.md"), "mine\n")
	_, err := p.root.UndoRuns(t.Context(), []string{"run1", "run2", "run3"}, false)
	var ce *sandbox.ConflictError
	if !errors.As(err, &ce) || ce.Run != "run2" {
		t.Fatalf("UndoRuns = %v, want a conflict in run2", err)
	}
	if p.content("a.md") != "a3\n" {
		t.Fatalf("a run was undone despite the conflict: a=%q", p.content("a.md"))
	}
	writeFile(t, filepath.Join(p.dir, "b.md"), "b1\n")
	reps, err := p.root.UndoRuns(t.Context(), []string{"run2", "run3"}, false)
	if err != nil || len(reps) != 2 || reps[0].Run != "run3" || reps[1].Run != "run2" {
		t.Fatalf("UndoRuns = %+v, %v", reps, err)
	}
	if p.content("a.md") != "a1\n" || p.content("b.md") != "b0\n" {
		t.Errorf("after rewinding to run2: a=%q b=%q", p.content("a.md"), p.content("b.md"))
	}
}

// Pruning by size keeps the whole last run, not only its last change set.
func TestPruneKeepsTheLastRun(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "a0\n"})
	wantOK(t, p.read("a.md"))
	p.turn("run1", "s1.1", func() { wantOK(t, p.write("rewrite", "a.md", "a1\n")) })
	p.turn("run2", "s1.2", func() { wantOK(t, p.write("rewrite", "a.md", "a2\n")) })
	p.turn("run2", "s1.3", func() { wantOK(t, p.write("rewrite", "a.md", "a3\n")) })
	r2 := sandbox.NewRoot(p.dir, sandbox.Options{BackupMaxBytes: 1})
	defer r2.Close()
	st, err := r2.Backups()
	if err != nil {
		t.Fatal(err)
	}
	h, err := st.History()
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Done) != 1 || h.Done[0].ID != "run2" || len(h.Done[0].Sets) != 2 {
		t.Fatalf("after pruning: %+v, want run2 whole", h.Done)
	}
	if _, err := r2.Undo(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(p.dir, "a.md")); string(got) != "a1\n" {
		t.Errorf("undo of the kept run: a=%q", got)
	}
}

// An undo that finds the files already reverted (by hand) is recorded all
// the same: the next undo goes one run further back, and redo works.
func TestUndoOfRevertedRunStillWalksBack(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "a0\n"})
	wantOK(t, p.read("a.md"))
	p.turn("run1", "s1.1", func() { wantOK(t, p.write("rewrite", "a.md", "a1\n")) })
	p.turn("run2", "s1.2", func() { wantOK(t, p.write("rewrite", "a.md", "a2\n")) })
	writeFile(t, filepath.Join(p.dir, "a.md"), "a1\n") // the user reverted run2 by hand
	rep, err := p.root.Undo(t.Context(), false)
	if err != nil || rep.Run != "run2" || len(rep.Changed()) != 0 {
		t.Fatalf("undo = %+v, %v", rep, err)
	}
	if rep, err = p.root.Undo(t.Context(), false); err != nil || rep.Run != "run1" {
		t.Fatalf("second undo = %+v, %v; want run1", rep, err)
	}
	if p.content("a.md") != "a0\n" {
		t.Errorf("a = %q", p.content("a.md"))
	}
	for _, want := range []string{"a1\n", "a1\n"} { // run1 redone; run2's redo finds a1, as its undo did
		if _, err := p.root.Redo(t.Context(), false); err != nil {
			t.Fatal(err)
		}
		if p.content("a.md") != want {
			t.Errorf("after redo: a = %q, want %q", p.content("a.md"), want)
		}
	}
}

// A folder made by someone else between an undo and the redo (so the
// redo did not make it) was there before the redo: the next undo keeps
// it, as it keeps any folder that was there before.
func TestUndoAfterRedoKeepsAFolderTheRedoDidNotMake(t *testing.T) {
	p := newProject(t, nil)
	p.turn("run1", "s1.1", func() {
		wantOK(t, p.write("create", "new/deep/x.md", "x\n"))
	})
	if _, err := p.root.Undo(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(p.dir, "new"), 0o755); err != nil {
		t.Fatal(err)
	}
	rep, err := p.root.Redo(t.Context(), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.FoldersMade) != 1 || rep.FoldersMade[0] != "new/deep" {
		t.Errorf("made folders = %v, want [new/deep]", rep.FoldersMade)
	}
	rep, err = p.root.Undo(t.Context(), false)
	if err != nil {
		t.Fatal(err)
	}
	if !exists(t, filepath.Join(p.dir, "new")) || exists(t, filepath.Join(p.dir, "new/deep")) {
		t.Errorf("undo after redo: new/ (made by someone else) should stay, new/deep go; removed %v", rep.FoldersRemoved)
	}
}

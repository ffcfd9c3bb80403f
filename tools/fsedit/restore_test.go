package fsedit

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// reply runs calls as one model reply: one change set.
func (p *project) reply(cs string, f func()) {
	old := p.ctx
	p.ctx = tools.WithInfo(p.t.Context(), tools.CallInfo{SessionID: "s1", CallID: "c-" + cs, ChangeSet: cs})
	f()
	p.ctx = old
}

// turn runs calls as one model reply (change set cs) of run run.
func (p *project) turn(run, cs string, f func()) {
	old := p.ctx
	p.ctx = sandbox.WithRun(tools.WithInfo(p.t.Context(), tools.CallInfo{SessionID: "s1", CallID: "c-" + cs, ChangeSet: cs}), run)
	f()
	p.ctx = old
}

func TestUndoAndRedo(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "a1\n", "b.md": "b1\nb2\n"})
	wantOK(t, p.read("a.md"))
	wantOK(t, p.read("b.md"))
	p.reply("r1", func() { wantOK(t, p.write("rewrite", "a.md", "a2\n")) })
	p.reply("r2", func() {
		wantOK(t, p.write("rewrite", "a.md", "a3\n"))
		wantOK(t, p.write("partial", "b.md", "B2\n", "start_line", "2", "end_line", "2"))
		wantOK(t, p.write("create", "new/c.md", "c\n"))
		wantOK(t, p.write("partial", "new/c.md", "c2\n", "start_line", "2", "end_line", "1"))
	})

	rep, err := p.root.Undo(t.Context(), false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Run != "r2" || len(rep.Files) != 3 {
		t.Errorf("undo report %+v", rep)
	}
	if p.content("a.md") != "a2\n" || p.content("b.md") != "b1\nb2\n" {
		t.Errorf("after undo: a=%q b=%q", p.content("a.md"), p.content("b.md"))
	}
	if _, err := os.Stat(filepath.Join(p.dir, "new/c.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("created file not removed by undo: %v", err)
	}

	// Redo puts r2's result back.
	rep2, err := p.root.Redo(t.Context(), false)
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Run != "r2" {
		t.Errorf("redo put back %q, want r2", rep2.Run)
	}
	if p.content("a.md") != "a3\n" || p.content("b.md") != "b1\nB2\n" || p.content("new/c.md") != "c\nc2\n" {
		t.Errorf("after redo: a=%q b=%q c=%q", p.content("a.md"), p.content("b.md"), p.content("new/c.md"))
	}
	if _, err := p.root.Redo(t.Context(), false); !errors.Is(err, sandbox.ErrNothingToRedo) {
		t.Errorf("second redo = %v, want ErrNothingToRedo", err)
	}

	// Restore r1 by id: a.md goes back to a1, but it changed after r1
	// (r2 wrote it), so it needs force.
	_, err = p.root.Restore(t.Context(), "r1", false)
	var ce *sandbox.ConflictError
	if !errors.As(err, &ce) || len(ce.Paths) != 1 || ce.Paths[0] != "a.md" {
		t.Fatalf("restore r1 = %v, want a conflict on a.md", err)
	}
	if p.content("a.md") != "a3\n" {
		t.Fatal("conflicting restore changed the file")
	}
	if _, err := p.root.Restore(t.Context(), "r1", true); err != nil {
		t.Fatal(err)
	}
	if p.content("a.md") != "a1\n" {
		t.Errorf("forced restore: a=%q", p.content("a.md"))
	}
	if _, err := p.root.Restore(t.Context(), "nope", false); err == nil {
		t.Error("restore of an unknown id succeeded")
	}
}

func TestUndoRefusesWhenChangedSince(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "one\n"})
	wantOK(t, p.read("a.md"))
	wantOK(t, p.write("rewrite", "a.md", "two\n"))
	writeFile(t, filepath.Join(p.dir, "a.md"), "user edit\n")
	_, err := p.root.Undo(t.Context(), false)
	var ce *sandbox.ConflictError
	if !errors.As(err, &ce) || ce.Run != "cs1" || len(ce.Paths) != 1 || ce.Paths[0] != "a.md" {
		t.Fatalf("undo = %v, want ConflictError on a.md in run cs1", err)
	}
	if p.content("a.md") != "user edit\n" {
		t.Fatal("user's edit lost")
	}
	if _, err := p.root.Undo(t.Context(), true); err != nil {
		t.Fatal(err)
	}
	if p.content("a.md") != "one\n" {
		t.Errorf("forced undo = %q", p.content("a.md"))
	}
	// The user's edit was backed up by the forced undo: redo brings it
	// back (as the undo found the file), not the agent's version.
	if _, err := p.root.Redo(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	if p.content("a.md") != "user edit\n" {
		t.Errorf("redo of the forced undo = %q", p.content("a.md"))
	}
}

func TestBackupRetention(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	p := newProjectOpts(t, map[string]string{"a.md": "x\n"}, sandbox.Options{Now: clock, BackupMaxAge: 24 * time.Hour, BackupMaxBytes: 1000})
	wantOK(t, p.read("a.md"))
	for i, cs := range []string{"old1", "old2", "mid", "new"} {
		if i == 2 {
			now = now.Add(48 * time.Hour)
		}
		p.reply(cs, func() { wantOK(t, p.write("rewrite", "a.md", cs+"\n")) })
	}
	// A second root (a new process) prunes on first use.
	r2 := sandbox.NewRoot(p.dir, sandbox.Options{Now: clock, BackupMaxAge: 24 * time.Hour, BackupMaxBytes: 1000})
	defer r2.Close()
	st, err := r2.Backups()
	if err != nil {
		t.Fatal(err)
	}
	sets, _ := st.List()
	var ids []string
	for _, c := range sets {
		ids = append(ids, c.ID)
	}
	if len(ids) != 2 || ids[0] != "mid" || ids[1] != "new" {
		t.Errorf("after pruning by age: %v, want [mid new]", ids)
	}
	if _, err := os.Stat(filepath.Join(p.dir, ".agent/backups/old1")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("pruned blobs still there: %v", err)
	}

	// By size: every change set but the newest goes.
	r3 := sandbox.NewRoot(p.dir, sandbox.Options{Now: clock, BackupMaxBytes: 1})
	defer r3.Close()
	st3, _ := r3.Backups()
	sets, _ = st3.List()
	if len(sets) != 1 || sets[0].ID != "new" {
		t.Errorf("after pruning by size: %+v", sets)
	}
}

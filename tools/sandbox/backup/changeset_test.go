package backup

import (
	"errors"
	"os"
	"testing"
	"time"
)

func TestGroupAndFind(t *testing.T) {
	root, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := New(root, Retention{}, func() time.Time { return now }, testKey)
	for _, e := range []Entry{
		{ChangeSet: "20260101-a", Path: "x.md", Op: OpRewrite, Existed: true, SHA256Before: "1", SHA256After: "2"},
		{ChangeSet: "20260101-b", Path: "y.md", Op: OpCreate, SHA256After: "3"},
		{ChangeSet: "20260101-a", Path: "x.md", Op: OpPartial, Existed: true, SHA256Before: "2", SHA256After: "4"},
		{ChangeSet: "20260101-a", Path: "z.md", Op: OpRewrite, Existed: true, SHA256Before: "5", SHA256After: "6"},
	} {
		if err := s.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	sets, err := s.List()
	if err != nil || len(sets) != 2 {
		t.Fatalf("List = %v, %v", sets, err)
	}
	// Ordered by their last write: a wrote after b.
	if sets[0].ID != "20260101-b" || sets[1].ID != "20260101-a" {
		t.Errorf("order %s, %s", sets[0].ID, sets[1].ID)
	}
	a := sets[1]
	if files := a.Files(); len(files) != 2 || files[0] != "x.md" || files[1] != "z.md" {
		t.Errorf("Files = %v", files)
	}
	before := a.Before()
	if len(before) != 2 || before[0].SHA256Before != "1" {
		t.Errorf("Before = %+v, want the first entry of x.md", before)
	}
	if after := a.After(); after["x.md"] != "4" {
		t.Errorf("After = %v, want the last hash of x.md", after)
	}
	if c, err := s.Find("20260101-a"); err != nil || c.ID != "20260101-a" {
		t.Errorf("Find exact = %v, %v", c.ID, err)
	}
	if c, err := s.Find("20260101-"); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("Find of an ambiguous prefix = %s, %v; want ErrAmbiguous", c.ID, err)
	}
	if _, err := s.Find("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Find unknown = %v, want ErrNotFound", err)
	}
}

func TestEntriesSkipTornLine(t *testing.T) {
	root, _ := os.OpenRoot(t.TempDir())
	defer root.Close()
	s := New(root, Retention{}, nil, testKey)
	s.Append(Entry{ChangeSet: "c", Path: "a.md", Op: OpCreate})
	f, _ := root.OpenFile(Dir+"/manifest.jsonl", os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"change_set":"d","pa`) // a crash mid-append
	f.Close()
	es, err := s.Entries()
	if err != nil || len(es) != 1 {
		t.Fatalf("Entries = %v, %v; want the one whole entry", es, err)
	}
	if err := s.Append(Entry{ChangeSet: "e", Path: "b.md", Op: OpCreate}); err != nil {
		t.Fatal(err)
	}
	es, _ = s.Entries()
	if len(es) != 2 || es[1].ChangeSet != "e" {
		t.Fatalf("after a torn line: %+v, want the next entry kept", es)
	}
}

// TestEntriesLinkedDir: a backup folder that is a symlink out of the
// project (a cloned repository's) is reported as a *LinkedError, whose
// message says what to do, not as the os.Root error of opening through it.
func TestEntriesLinkedDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(dir+"/.agent", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), dir+"/.agent/backups"); err != nil {
		t.Fatal(err)
	}
	root, _ := os.OpenRoot(dir)
	defer root.Close()
	_, err := New(root, Retention{}, nil, testKey).Entries()
	var le *LinkedError
	if !errors.As(err, &le) || le.Path != Dir || !le.Link {
		t.Fatalf("Entries = %v, want a *LinkedError for %s", err, Dir)
	}
}

func TestFileSummary(t *testing.T) {
	cs := ChangeSet{Entries: []Entry{{Path: "a.md"}, {Path: "b.md"}, {Path: "a.md"}, {Path: "c.md"}, {Path: "d.md"}}}
	if got := cs.FileSummary(3); got != "a.md, b.md, c.md (+1 more)" {
		t.Errorf("FileSummary(3) = %q", got)
	}
	if got := cs.FileSummary(4); got != "a.md, b.md, c.md, d.md" {
		t.Errorf("FileSummary(4) = %q", got)
	}
}

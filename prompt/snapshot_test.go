package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSnapshotChanges(t *testing.T) {
	root := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("keep.md", "a")
	write("edit.md", "a")
	write("gone.md", "a")
	write(".gitignore", "build/\n")
	s := TakeSnapshot(t.Context(), root)
	if note := s.Changes(t.Context(), nil); note != "" {
		t.Fatalf("nothing changed, but the note is %q", note)
	}

	write("docs/new.md", "b")
	write("edit.md", "changed")
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(root, "edit.md"), later, later)
	os.Remove(filepath.Join(root, "gone.md"))
	write("build/out.bin", "ignored")
	write("ours.md", "written by the agent")
	note := s.Changes(t.Context(), []string{"ours.md"})
	for _, want := range []string{"created docs/new.md", "changed edit.md", "deleted gone.md"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q does not say %q", note, want)
		}
	}
	for _, not := range []string{"ours.md", "build/", "keep.md"} {
		if strings.Contains(note, not) {
			t.Errorf("note %q mentions %q", note, not)
		}
	}
	if again := s.Changes(t.Context(), nil); again != "" {
		t.Errorf("a second look with no change says %q", again)
	}
}

func TestSnapshotNoteIsBounded(t *testing.T) {
	root := t.TempDir()
	s := TakeSnapshot(t.Context(), root)
	for i := range 40 {
		os.WriteFile(filepath.Join(root, "f"+string(rune('a'+i%26))+string(rune('a'+i/26))+".txt"), nil, 0o644)
	}
	note := s.Changes(t.Context(), nil)
	if !strings.Contains(note, "and 28 more") || strings.Count(note, ".txt") != snapshotNoteNames {
		t.Errorf("note = %q, want %d names and the rest counted", note, snapshotNoteNames)
	}
}

package notes

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOpenRefusesLinkedState: in a project's .agent folder, a notes.db
// (or its -wal file, or .agent itself) that is a symlink is refused, and
// nothing is created where it points; elsewhere a link is the user's
// choice and is followed.
func TestOpenRefusesLinkedState(t *testing.T) {
	ctx := context.Background()
	outside := t.TempDir()
	for _, c := range []struct{ name, link string }{
		{"the database", ".agent/notes.db"},
		{"its WAL", ".agent/notes.db-wal"},
		{"the folder", ".agent"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			os.MkdirAll(filepath.Join(root, filepath.Dir(c.link)), 0o755)
			target := filepath.Join(outside, c.name)
			if c.link == ".agent" {
				os.MkdirAll(target, 0o755)
			}
			if err := os.Symlink(target, filepath.Join(root, c.link)); err != nil {
				t.Fatal(err)
			}
			s, err := Open(ctx, filepath.Join(root, ".agent", "notes.db"))
			if err == nil {
				s.Close()
			}
			if !errors.Is(err, ErrLinked) || !strings.Contains(err.Error(), "is a symlink") {
				t.Fatalf("Open = %v, want ErrLinked", err)
			}
			if _, err := os.Stat(target); c.link != ".agent" && err == nil {
				t.Errorf("a file was created at the link's target %s", target)
			}
			if ents, _ := os.ReadDir(target); c.link == ".agent" && len(ents) > 0 {
				t.Errorf("files created in the linked folder: %v", ents)
			}
		})
	}
	// A user's own notes.path may be a link.
	real := filepath.Join(outside, "mine.db")
	link := filepath.Join(t.TempDir(), "notes.db")
	os.Symlink(real, link)
	s, err := Open(ctx, link)
	if err != nil {
		t.Fatalf("Open(a link outside .agent) = %v", err)
	}
	s.Close()
}

// TestOpenRefusesSpecialFiles: a database path that is a folder or a
// named pipe is refused at once, never opened (a pipe would wait forever).
func TestOpenRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "folder.db")
	os.Mkdir(folder, 0o755)
	pipe := filepath.Join(dir, "pipe.db")
	if err := mkfifo(pipe); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	for path, want := range map[string]string{folder: "it is a folder", pipe: "it is not a regular file"} {
		done := make(chan error, 1)
		go func() {
			s, err := Open(context.Background(), path)
			if err == nil {
				s.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), want) {
				t.Errorf("Open(%s) = %v, want %q", filepath.Base(path), err, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Open(%s) hangs", filepath.Base(path))
		}
	}
}

//go:build linux

package notes_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentcli/agent/tools/notes"
)

// TestReadImportRefusesSpecialFiles: an import reads regular files
// only, bounded: /dev/zero (named, or behind a .md or .jsonl link) would
// grow memory without end, a FIFO would wait forever, /proc/self/environ
// is the environment. Each is refused at once with an ImportError naming
// it; a Markdown file over a note's size is refused by its size, unread.
func TestReadImportRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	link := func(target, name string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "notes2.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	mdFifo := filepath.Join(dir, "pipe.md")
	if err := syscall.Mkfifo(mdFifo, 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.md")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 3<<30); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{
		"/dev/zero",
		link("/dev/zero", "notes.md"),
		link("/dev/zero", "n.jsonl"),
		link("/proc/self/environ", "env.md"),
		fifo,
		mdFifo,
		huge,
	} {
		done := make(chan error, 1)
		go func() {
			_, err := notes.ReadImport(p, "", nil, nil)
			done <- err
		}()
		select {
		case err := <-done:
			var ie *notes.ImportError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), p) || strings.Contains(err.Error(), "\n") {
				t.Errorf("import %s = %v, want one line of ImportError naming it", p, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("import %s still running after 5 s", p)
		}
	}
}

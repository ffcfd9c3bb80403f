//go:build unix

package prompt

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestTreeSkipsSpecialFiles: a named pipe and a socket are neither shown
// as files (📝) nor counted as files, expanded or collapsed.
func TestTreeSkipsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a.txt", "sub/b.txt"} {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"pipe", "sub/pipe2"} {
		if err := syscall.Mkfifo(filepath.Join(dir, p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A socket path must be short: make it from inside the folder.
	t.Chdir(dir)
	ln, err := net.Listen("unix", "sock")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()

	for _, opts := range []TreeOptions{{}, {Budget: 2, FolderLimit: 1}} {
		tr, err := BuildTree(t.Context(), dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(tr.Text, "pipe") || strings.Contains(tr.Text, "sock") {
			t.Errorf("budget %d: tree shows a special file:\n%s", opts.Budget, tr.Text)
		}
		if opts.Budget == 2 && tr.Collapsed == 0 {
			t.Errorf("budget 2: no folder collapsed, so the count is not tested:\n%s", tr.Text)
		}
		if tr.Files != 2 {
			t.Errorf("budget %d: Files = %d, want 2 (the pipes and the socket are no files):\n%s", opts.Budget, tr.Files, tr.Text)
		}
	}
}

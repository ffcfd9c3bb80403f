//go:build linux

package fsedit

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// failingWriter fails with err once more than n bytes were written.
type failingWriter struct {
	w   io.Writer
	n   int
	err error
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		return 0, f.err
	}
	f.n -= len(p)
	return f.w.Write(p)
}

func TestDiskFullInjected(t *testing.T) {
	old := strings.Repeat("old line\n", 100000)
	p := newProject(t, map[string]string{"a.md": old})
	wantOK(t, p.read("a.md"))
	sandbox.TestHookWrap = func(w io.Writer) io.Writer { return &failingWriter{w: w, n: 300 << 10, err: syscall.ENOSPC} }
	t.Cleanup(func() { sandbox.TestHookWrap = nil })
	for _, op := range []map[string]string{
		kv("operation_type", "rewrite", "file_path", "a.md", "content", strings.Repeat("new line\n", 100000)),
		kv("operation_type", "partial", "file_path", "a.md", "content", "x\n", "start_line", "5", "end_line", "5"),
		kv("operation_type", "create", "file_path", "b.md", "content", strings.Repeat("new line\n", 100000)),
	} {
		_, err := p.reg.Call(p.ctx, "write_file", op)
		if err == nil || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "disk is full") {
			t.Errorf("%s: error = %v, want a disk-full error", op["operation_type"], err)
		}
	}
	if p.content("a.md") != old {
		t.Error("original changed")
	}
	if _, err := os.Stat(filepath.Join(p.dir, "b.md")); err == nil {
		t.Error("failed create left a file")
	}
	if tf := tempFiles(t, p.dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
}

// TestDiskFullTmpfs runs a rewrite on a real, nearly full tmpfs. It needs
// the right to mount (root in a container or CI), and skips otherwise.
func TestDiskFullTmpfs(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=4m"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v); TestDiskFullInjected covers the logic", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	old := strings.Repeat("old line\n", 200000) // 1.8 MB
	writeFile(t, filepath.Join(dir, "a.md"), old)
	filler := make([]byte, 1<<20)
	f, _ := os.Create(filepath.Join(dir, "filler.bin"))
	for {
		if _, err := f.Write(filler[:64<<10]); err != nil {
			break
		}
	}
	f.Close()
	root := sandbox.NewRoot(dir, sandbox.Options{MaxReadBytes: 4 << 20})
	defer root.Close()
	reg := tools.NewRegistry(NewSession(root).Tools()...)
	ctx := t.Context()
	// Read whole: a rewrite needs the whole file read.
	if res, err := reg.Call(ctx, "read_file", kv("file_path", "a.md")); err != nil || res.IsError() {
		t.Fatal(err, res.Message)
	}
	_, err := reg.Call(ctx, "write_file", kv("operation_type", "rewrite", "file_path", "a.md", "content", strings.Repeat("new line\n", 200000)))
	if err == nil || !strings.Contains(err.Error(), "disk is full") {
		t.Fatalf("error = %v, want a disk-full error", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.md")); string(b) != old {
		t.Error("original changed")
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
}

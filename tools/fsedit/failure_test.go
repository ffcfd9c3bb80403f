//go:build linux

package fsedit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentcli/agent/tools"
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
	testHookWrap = func(w io.Writer) io.Writer { return &failingWriter{w: w, n: 300 << 10, err: syscall.ENOSPC} }
	t.Cleanup(func() { testHookWrap = nil })
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
	root := NewRoot(dir, Options{})
	defer root.Close()
	reg := tools.NewRegistry(NewSession(root).Tools()...)
	ctx := t.Context()
	if res, err := reg.Call(ctx, "read_file", kv("file_path", "a.md", "start_line", "1", "end_line", "2")); err != nil || res.IsError() {
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

// permResult is what the permission child reports.
type permResult struct {
	Code, Message, Err string
}

// permChild reads and rewrites a file in a folder it may not write to.
func permChild() {
	root := NewRoot(os.Getenv("FSEDIT_DIR"), Options{})
	reg := tools.NewRegistry(NewSession(root).Tools()...)
	var out permResult
	res, err := reg.Call(tools.WithInfo(nil2ctx(), tools.CallInfo{}), "read_file", map[string]string{"file_path": "a.md"})
	if err == nil && !res.IsError() {
		res, err = reg.Call(nil2ctx(), "write_file", map[string]string{"operation_type": "rewrite", "file_path": "a.md", "content": "new\n"})
	}
	out.Code, out.Message = res.Code, res.Message
	if err != nil {
		out.Err = err.Error()
	}
	json.NewEncoder(os.Stdout).Encode(out)
}

// TestPermissionDenied writes into a folder the process may not write.
// Root ignores permission bits, so as root the test drops privileges: it
// re-runs the test binary as user nobody (syscall.Credential).
func TestPermissionDenied(t *testing.T) {
	base, err := os.MkdirTemp("", "fsedit-perm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(base, "proj"), 0o755); os.RemoveAll(base) })
	proj := filepath.Join(base, "proj")
	writeFile(t, filepath.Join(proj, "a.md"), "old\n")
	os.Chmod(base, 0o755)

	var got permResult
	if os.Geteuid() == 0 {
		bin := filepath.Join(base, "fsedit.test")
		copyFile(t, os.Args[0], bin)
		cmd := exec.Command(bin, "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=perm", "FSEDIT_DIR="+proj)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("child: %v", err)
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("child said %q: %v", out, err)
		}
	} else {
		os.Chmod(proj, 0o555)
		root := NewRoot(proj, Options{})
		defer root.Close()
		reg := tools.NewRegistry(NewSession(root).Tools()...)
		reg.Call(t.Context(), "read_file", kv("file_path", "a.md"))
		res, err := reg.Call(t.Context(), "write_file", kv("operation_type", "rewrite", "file_path", "a.md", "content", "new\n"))
		got = permResult{Code: res.Code, Message: res.Message, Err: fmt.Sprint(err)}
	}
	if !strings.Contains(got.Err, "permission denied") || !strings.Contains(got.Err, "unchanged") {
		t.Errorf("result %+v, want a permission-denied error saying the file is unchanged", got)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "a.md")); string(b) != "old\n" {
		t.Errorf("file = %q, want it untouched", b)
	}
	if tf := tempFiles(t, proj); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

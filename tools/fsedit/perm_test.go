//go:build unix

package fsedit

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentcli/agent/tools"
)

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

//go:build unix

package fsedit

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// permResult is what one call of the permission child returned.
type permResult struct {
	Code, Message, Err string
}

// permCall is one tool call the permission child makes.
type permCall struct {
	Tool string            `json:"tool"`
	Args map[string]string `json:"args"`
}

// runCalls makes calls in order in one session over dir.
func runCalls(dir string, calls []permCall) []permResult {
	root := sandbox.NewRoot(dir, sandbox.Options{})
	defer root.Close()
	reg := tools.NewRegistry(NewSession(root).Tools()...)
	var out []permResult
	for _, c := range calls {
		res, err := reg.Call(tools.WithInfo(nil2ctx(), tools.CallInfo{}), c.Tool, c.Args)
		r := permResult{Code: res.Code, Message: res.Message}
		if err != nil {
			r.Err = err.Error()
		}
		out = append(out, r)
	}
	return out
}

// permChild makes the calls of FSEDIT_CALLS in FSEDIT_DIR.
func permChild() {
	var calls []permCall
	json.Unmarshal([]byte(os.Getenv("FSEDIT_CALLS")), &calls)
	json.NewEncoder(os.Stdout).Encode(runCalls(os.Getenv("FSEDIT_DIR"), calls))
}

// asUnprivileged makes calls over proj as a user that permission bits
// apply to. Root ignores them, so as root the test binary is re-run as
// user nobody (syscall.Credential).
func asUnprivileged(t *testing.T, base, proj string, calls []permCall) []permResult {
	t.Helper()
	if os.Geteuid() != 0 {
		return runCalls(proj, calls)
	}
	bin := filepath.Join(base, "fsedit.test")
	copyFile(t, os.Args[0], bin)
	js, _ := json.Marshal(calls)
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=perm", "FSEDIT_DIR="+proj, "FSEDIT_CALLS="+string(js))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	var got []permResult
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("child said %q: %v", out, err)
	}
	return got
}

// permProject makes a project under a temp folder the unprivileged user
// can enter, with a.md in it, and restores the modes at cleanup.
func permProject(t *testing.T) (base, proj string) {
	t.Helper()
	base, err := os.MkdirTemp("", "fsedit-perm-")
	if err != nil {
		t.Fatal(err)
	}
	proj = filepath.Join(base, "proj")
	t.Cleanup(func() {
		filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
			os.Chmod(p, 0o755)
			return nil
		})
		os.Chmod(filepath.Join(proj, "noread"), 0o755)
		os.RemoveAll(base)
	})
	writeFile(t, filepath.Join(proj, "a.md"), "old\n")
	os.Chmod(base, 0o755)
	return base, proj
}

// TestPermissionDenied writes into a folder the process may not write:
// the model gets TOOL_POLICY_DENIED, nothing changes, no temp file stays.
func TestPermissionDenied(t *testing.T) {
	base, proj := permProject(t)
	os.Chmod(proj, 0o555)
	got := asUnprivileged(t, base, proj, []permCall{
		{"read_file", kv("file_path", "a.md")},
		{"write_file", kv("operation_type", "rewrite", "file_path", "a.md", "content", "new\n")},
	})
	if r := got[1]; r.Err != "" || r.Code != tools.CodePolicyDenied || !strings.Contains(r.Message, "a.md: permission denied by the file system") || !strings.Contains(r.Message, "cannot write it") {
		t.Errorf("rewrite: %+v, want TOOL_POLICY_DENIED saying a.md cannot be written", r)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "a.md")); string(b) != "old\n" {
		t.Errorf("file = %q, want it untouched", b)
	}
	if tf := tempFiles(t, proj); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
}

// TestPermissionDeniedIsModelFixable checks that unreadable files and
// folders, and creates in a folder the user may not write, are answered
// with TOOL_POLICY_DENIED rather than a Go error that ends the run.
func TestPermissionDeniedIsModelFixable(t *testing.T) {
	base, proj := permProject(t)
	writeFile(t, filepath.Join(proj, "noread.txt"), "secret\n")
	writeFile(t, filepath.Join(proj, "noread", "x.txt"), "x\n")
	writeFile(t, filepath.Join(proj, "ro", "y.txt"), "y\n")
	os.Chmod(filepath.Join(proj, "noread.txt"), 0)
	os.Chmod(filepath.Join(proj, "noread"), 0)
	os.Chmod(filepath.Join(proj, "ro"), 0o555)
	calls := []permCall{
		{"read_file", kv("file_path", "noread.txt")},
		{"read_file", kv("file_path", "noread/x.txt")},
		{"list_directory", kv("path", "noread")},
		{"write_file", kv("operation_type", "create", "file_path", "ro/new.txt", "content", "n\n")},
		{"write_file", kv("operation_type", "create", "file_path", "ro/sub/new.txt", "content", "n\n")},
	}
	got := asUnprivileged(t, base, proj, calls)
	for i, r := range got {
		if r.Err != "" || r.Code != tools.CodePolicyDenied || !strings.Contains(r.Message, "permission denied by the file system") || strings.ContainsAny(r.Message, "\n") {
			t.Errorf("%s %v: %+v, want TOOL_POLICY_DENIED, no Go error", calls[i].Tool, calls[i].Args, r)
		}
	}
	for _, p := range []string{"ro/new.txt", "ro/sub"} {
		if _, err := os.Lstat(filepath.Join(proj, p)); err == nil {
			t.Errorf("%s was made", p)
		}
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

// TestOthersFileNotReplaced checks that a file this process may not write
// (owned by root, mode 0644, in a folder it may write) is not replaced by
// the rename of a new one, which the folder's permission alone would allow.
func TestOthersFileNotReplaced(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a file owned by another user")
	}
	base, proj := permProject(t)
	writeFile(t, filepath.Join(proj, "rootown.txt"), "root's\n")
	if err := os.Chmod(proj, 0o777); err != nil {
		t.Fatal(err)
	}
	calls := []permCall{
		{"read_file", kv("file_path", "rootown.txt")},
		{"write_file", kv("operation_type", "rewrite", "file_path", "rootown.txt", "content", "mine\n")},
	}
	got := asUnprivileged(t, base, proj, calls)
	if got[0].Code != "" || got[0].Err != "" {
		t.Fatalf("read: %+v", got[0])
	}
	if got[1].Code != tools.CodePolicyDenied || !strings.Contains(got[1].Message, "cannot write") {
		t.Errorf("rewrite of root's file as nobody: %+v, want TOOL_POLICY_DENIED", got[1])
	}
	b, _ := os.ReadFile(filepath.Join(proj, "rootown.txt"))
	fi, _ := os.Stat(filepath.Join(proj, "rootown.txt"))
	if uid, _, _ := sandbox.Owner(fi); string(b) != "root's\n" || uid != 0 {
		t.Errorf("file now %q owned by %d", b, uid)
	}
}

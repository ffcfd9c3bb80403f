package shell

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
)

// needBwrap fails the test under CI when bubblewrap is missing (CI must
// exercise the real sandbox), and skips it elsewhere.
func needBwrap(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bwrap not found: install the package bubblewrap")
		}
		t.Skip("bwrap not found; install the package bubblewrap to run the sandbox tests")
	}
}

// project makes a project folder with files (path -> content) and a .git.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "proj")
	if files == nil {
		files = map[string]string{}
	}
	if _, ok := files[".git/config"]; !ok {
		files[".git/config"] = "[core]\n"
	}
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runIn runs command through a registry, as the agent loop does.
func runIn(t *testing.T, tool *Tool, command string, extra ...string) tools.Result {
	t.Helper()
	args := map[string]string{"command": command}
	for i := 0; i+1 < len(extra); i += 2 {
		args[extra[i]] = extra[i+1]
	}
	res, err := tools.NewRegistry(tool).Call(t.Context(), "run_command", args)
	if err != nil {
		t.Fatalf("Call(%q) error = %v", command, err)
	}
	return res
}

func meta(res tools.Result, name string) string {
	for _, a := range res.Metadata {
		if a.Name == name {
			return a.Value
		}
	}
	return ""
}

// processWith reports whether a process whose command line holds token
// is alive (host view: the sandbox's processes are visible from here).
func processWith(token string) bool {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		if strings.Contains(strings.ReplaceAll(string(data), "\x00", " "), token) {
			st, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
			if !strings.Contains(string(st), ") Z ") { // zombies are gone already
				return true
			}
		}
	}
	return false
}

// gone waits a moment for no process to hold token.
func gone(token string) bool {
	for range 20 {
		if !processWith(token) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

type contextType = context.Context

func contextWithCancel(t *testing.T) (context.Context, context.CancelFunc) {
	return context.WithCancel(t.Context())
}

func short(s string) string { return termtext.RunePrefix(s, 300) }

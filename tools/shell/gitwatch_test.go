package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
)

// plantRepo makes a repository at dir/rel whose core.fsmonitor would
// touch marker, as a program of the project could, outside any command.
func plantRepo(t *testing.T, dir, rel, marker string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q", rel}, {"-C", rel, "config", "core.fsmonitor", "touch " + marker}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// TestWatchedProgramRunsWithTheGuard starts a program as a project's MCP
// server starts (GitWatch, Sandbox): the nested repository there is
// read-only to it; what it plants is moved away after its call (Check)
// and when it stops (Stopped), and said, naming it.
func TestWatchedProgramRunsWithTheGuard(t *testing.T) {
	needBwrap(t)
	needGit(t)
	bwrap, err := FindBwrap(exec.LookPath)
	if err != nil {
		t.Fatal(err)
	}
	dir := project(t, map[string]string{"sub/.git/config": "[core]\n", "sub/.git/HEAD": "ref: refs/heads/main\n"})
	os.MkdirAll(filepath.Join(dir, "sub/.git/objects"), 0o755)
	os.MkdirAll(filepath.Join(dir, "sub/.git/refs"), 0o755)
	marker := filepath.Join(t.TempDir(), "PWNED")
	watch := NewGitWatch(dir, Options{})
	g := watch.Start("MCP server srv")
	sb := ProgramSandbox(dir, Options{})
	sb.Bwrap, sb.Env, sb.Protected = bwrap, []string{"PATH=/usr/bin:/bin"}, g.Protected()
	run := func(script string) string {
		t.Helper()
		cmd, err := sb.Command("/bin/sh", "-c", script)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	out := run("echo '[core] fsmonitor = x' >> sub/.git/config || echo refused; git init -q planted && git -C planted config core.fsmonitor 'touch " + marker + "'")
	if !strings.Contains(out, "refused") {
		t.Errorf("the nested repository's config was writable: %q", out)
	}
	var r tools.Result
	g.Check(&r)
	if len(r.Alerts) != 1 || !strings.HasPrefix(r.Alerts[0], "MCP server srv created planted/.git, a git repository") || !strings.Contains(r.Alerts[0], "moved to .agent/quarantine/") {
		t.Errorf("alerts after the call: %q", r.Alerts)
	}
	if !strings.Contains(r.Content, "Programs of the project run in the sandbox and cannot create") {
		t.Errorf("the model is not told: %q", r.Content)
	}
	if gitStatusRuns(t, filepath.Join(dir, "planted"), marker) {
		t.Fatal("git status ran what the program planted during its call")
	}
	run("git init -q late && git -C late config core.fsmonitor 'touch " + marker + "'")
	lines := g.Stopped()
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "MCP server srv created late/.git") {
		t.Errorf("lines when it stopped: %q", lines)
	}
	if gitStatusRuns(t, filepath.Join(dir, "late"), marker) {
		t.Fatal("git status ran what the program planted as it stopped")
	}
	if again := g.Stopped(); again != nil {
		t.Errorf("a second Stopped said %q", again)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "sub/.git/config")); string(b) != "[core]\n" {
		t.Errorf("sub/.git/config = %q", b)
	}
}

// TestPlantBetweenCallsIsNotThePersons: a repository that appears while a
// project's program runs, between its calls, is moved away by the next
// command's look, and said, rather than taken for one of the person's
// (which the command's own guard would leave where it is). Once the
// program has stopped, a repository the person makes is theirs.
func TestPlantBetweenCallsIsNotThePersons(t *testing.T) {
	needBwrap(t)
	needGit(t)
	dir := project(t, nil)
	marker := filepath.Join(t.TempDir(), "PWNED")
	watch := NewGitWatch(dir, Options{})
	tool := New(dir, Options{Watch: watch})
	g := watch.Start("MCP server srv")
	plantRepo(t, dir, "between", marker)
	res := runIn(t, tool, "true")
	if len(res.Alerts) != 1 || !strings.HasPrefix(res.Alerts[0], "a program in the sandbox (MCP server srv or another) created between/.git") {
		t.Errorf("alerts = %q", res.Alerts)
	}
	if !strings.Contains(res.Message, "moved away") || !strings.Contains(res.Content, "created between/.git") {
		t.Errorf("the model is not told: %s\n%s", res.Message, res.Content)
	}
	if gitStatusRuns(t, filepath.Join(dir, "between"), marker) {
		t.Fatal("git status ran what was planted between two calls")
	}
	if lines := g.Stopped(); len(lines) != 0 {
		t.Errorf("Stopped said %q", lines)
	}
	plantRepo(t, dir, "mine", marker)
	if res := runIn(t, tool, "true"); len(res.Alerts) != 0 {
		t.Errorf("with no program running, the person's repository was taken: %q", res.Alerts)
	}
	if _, err := os.Stat(filepath.Join(dir, "mine", ".git")); err != nil {
		t.Errorf("the person's repository: %v", err)
	}
}

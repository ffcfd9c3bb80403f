package shell

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// outsideProcesses returns the environment of each process of this
// machine's PID namespace (so outside any sandbox) whose command line
// holds token: what starts a sandbox (a launcher, bubblewrap).
func outsideProcesses(t *testing.T, token string) map[int]string {
	t.Helper()
	own, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]string{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		dir := filepath.Join("/proc", e.Name())
		cmdline, err := os.ReadFile(filepath.Join(dir, "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte(token)) {
			continue
		}
		if ns, err := os.Readlink(filepath.Join(dir, "ns", "pid")); err != nil || ns != own {
			continue
		}
		env, err := os.ReadFile(filepath.Join(dir, "environ"))
		if err != nil {
			continue
		}
		out[pid] = strings.ReplaceAll(string(env), "\x00", " ")
	}
	return out
}

// probeEnv are variables a project's MCP entry may name: the dynamic
// loader would load a library of the project into any program that
// starts with them.
var probeEnv = []string{"LD_PRELOAD=./hook.so", "LD_LIBRARY_PATH=./lib", "AGENT_ENTRY_PROBE=inside-only"}

// TestSandboxEnvironmentIsSetInside starts a program whose environment
// names LD_PRELOAD and LD_LIBRARY_PATH (as a project's MCP entry may),
// and, while it runs, reads the environment of every process outside
// the sandbox that starts it (bubblewrap): none holds them, nor any
// other of the program's variables; the program itself has them all,
// and its arguments show nowhere on bubblewrap's command line.
func TestSandboxEnvironmentIsSetInside(t *testing.T) {
	needBwrap(t)
	bwrap, err := FindBwrap(exec.LookPath)
	if err != nil {
		t.Fatal(err)
	}
	dir := project(t, nil)
	token := "env-probe-" + strconv.Itoa(os.Getpid())
	sb := Sandbox{Bwrap: bwrap, Root: dir, MemoryLimit: 1 << 30, Env: append([]string{"PATH=/usr/bin:/bin", "SECRETLESS=value-not-on-argv"}, probeEnv...)}
	cmd, err := sb.Command("/bin/sh", "-c", `echo "in=$AGENT_ENTRY_PROBE $LD_LIBRARY_PATH"; while [ ! -e proceed ]; do sleep 0.02; done # `+token)
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "in=inside-only ./lib\n" {
		t.Errorf("the program's environment inside: %q", line)
	}
	procs := outsideProcesses(t, token)
	os.WriteFile(filepath.Join(dir, "proceed"), nil, 0o644)
	if _, ok := procs[cmd.Process.Pid]; !ok {
		t.Fatalf("bubblewrap (pid %d) not among the processes outside the sandbox: %v", cmd.Process.Pid, procs)
	}
	for pid, env := range procs {
		for _, v := range []string{"LD_PRELOAD", "LD_LIBRARY_PATH", "AGENT_ENTRY_PROBE", "SECRETLESS"} {
			if strings.Contains(env, v) {
				t.Errorf("process %d outside the sandbox has %s in its environment: %s", pid, v, env)
			}
		}
	}
	if strings.Contains(strings.Join(cmd.Args, " "), "value-not-on-argv") {
		t.Errorf("the environment is on bubblewrap's command line: %v", cmd.Args)
	}
}

// TestCommandEnvironmentIsSetInside: run_command's commands likewise,
// with its launcher (the cgroups it joins, or the data limit) outside.
func TestCommandEnvironmentIsSetInside(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	token := "cmd-env-probe-" + strconv.Itoa(os.Getpid())
	tool := New(dir, Options{Env: append(os.Environ(), probeEnv...)})
	done := make(chan string, 1)
	go func() {
		res := runIn(t, tool, `echo "in=$AGENT_ENTRY_PROBE $LD_PRELOAD"; touch started; while [ ! -e proceed ]; do sleep 0.02; done # `+token)
		done <- res.Content
	}()
	waitFile(t, filepath.Join(dir, "started"))
	procs := outsideProcesses(t, token)
	os.WriteFile(filepath.Join(dir, "proceed"), nil, 0o644)
	var got string
	select {
	case got = <-done:
	case <-time.After(time.Minute):
		t.Fatal("the command did not end")
	}
	if !strings.Contains(got, "in=inside-only ./hook.so") {
		t.Errorf("the command's environment inside: %q", got)
	}
	if len(procs) == 0 {
		t.Fatal("no process outside the sandbox holds the command: the test sees nothing")
	}
	for pid, env := range procs {
		for _, v := range []string{"LD_PRELOAD", "LD_LIBRARY_PATH", "AGENT_ENTRY_PROBE"} {
			if strings.Contains(env, v) {
				t.Errorf("process %d outside the sandbox has %s in its environment: %s", pid, v, env)
			}
		}
	}
}

// linkedHome is a project beside a home holding a key, for the tests of
// links: base/home/.ssh/id_rsa and base/proj.
func linkedHome(t *testing.T) (base, home, dir string) {
	t.Helper()
	base = t.TempDir()
	home = filepath.Join(base, "home")
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("SECRET-KEY"), 0o600)
	dir = filepath.Join(base, "proj")
	os.MkdirAll(dir, 0o755)
	return base, home, dir
}

// TestLinksNeverRedirectMounts: bubblewrap follows a link on the way to
// a mount's destination inside the sandbox, so a relative link planted
// in the project (.git -> ../home, .agent -> ../home, a nested folder
// -> the home) would mount the real home over the hidden one. None of
// them shows the key, whether run_command or a program started through
// the Sandbox API reads it.
func TestLinksNeverRedirectMounts(t *testing.T) {
	needBwrap(t)
	bwrap, err := FindBwrap(exec.LookPath)
	if err != nil {
		t.Fatal(err)
	}
	read := `cat "$HOME/.ssh/id_rsa" .git/.ssh/id_rsa .agent/.ssh/id_rsa 2>&1; ls -A "$HOME"; echo done`
	for _, link := range []string{".git", ".agent", "sub"} {
		t.Run(link, func(t *testing.T) {
			_, home, dir := linkedHome(t)
			if err := os.Symlink("../home", filepath.Join(dir, link)); err != nil {
				t.Fatal(err)
			}
			env := []string{"HOME=" + home, "PATH=/usr/bin:/bin"}
			sb := Sandbox{Bwrap: bwrap, Root: dir, Home: home, Env: env,
				Protected: []string{filepath.Join(dir, "sub", ".ssh")}, Masked: []string{filepath.Join(dir, "sub")}}
			cmd, err := sb.Command("/bin/sh", "-c", read)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := cmd.CombinedOutput()
			tool := New(dir, Options{Env: append(os.Environ(), "HOME="+home), Caches: []string{}, ToolDirs: []string{}})
			res := runIn(t, tool, read)
			for _, got := range []string{string(out), res.Content} {
				if strings.Contains(got, "SECRET-KEY") || !strings.Contains(got, "done") {
					t.Errorf("%s -> ../home: the key was read in the sandbox (or nothing ran):\n%s", link, got)
				}
			}
		})
	}
}

// TestLinkedWritableFolderIsNotMounted: a writable folder inside another
// (a cache in a cache), which a command turned into a link to the home,
// is not mounted (writable!) over the hidden home at the next command.
func TestLinkedWritableFolderIsNotMounted(t *testing.T) {
	needBwrap(t)
	base, home, dir := linkedHome(t)
	cache := filepath.Join(base, "cache")
	inner := filepath.Join(cache, "inner")
	os.MkdirAll(cache, 0o755)
	if err := os.Symlink(filepath.Join(home, ".ssh"), inner); err != nil {
		t.Fatal(err)
	}
	tool := New(dir, Options{Env: append(os.Environ(), "HOME="+home), Caches: []string{cache, inner}, ToolDirs: []string{}})
	res := runIn(t, tool, `cat "$HOME/.ssh/id_rsa" `+inner+`/id_rsa 2>&1; echo planted > `+inner+`/planted 2>&1; echo done`)
	if strings.Contains(res.Content, "SECRET-KEY") || !strings.Contains(res.Content, "done") {
		t.Errorf("the key was read through the linked cache:\n%s", res.Content)
	}
	if _, err := os.Stat(filepath.Join(home, ".ssh", "planted")); err == nil {
		t.Error("a command wrote into the home's .ssh through the linked cache")
	}
}

// TestLinkedGitInsideTheProjectStaysReadOnly: an honest .git that links
// to a folder of the project (.git -> .bare) is protected at its real
// place: neither path writes.
func TestLinkedGitInsideTheProjectStaysReadOnly(t *testing.T) {
	needBwrap(t)
	dir := filepath.Join(t.TempDir(), "proj")
	os.MkdirAll(filepath.Join(dir, ".bare"), 0o755)
	os.WriteFile(filepath.Join(dir, ".bare", "config"), []byte("[core]\n"), 0o644)
	if err := os.Symlink(".bare", filepath.Join(dir, ".git")); err != nil {
		t.Fatal(err)
	}
	tool := New(dir, Options{})
	res := runIn(t, tool, "echo x >> .git/config || echo refused-git; echo x >> .bare/config || echo refused-bare; cat .git/config")
	for _, want := range []string{"refused-git", "refused-bare", "[core]"} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Content)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".bare", "config")); string(b) != "[core]\n" {
		t.Errorf(".bare/config = %q, changed", b)
	}
}

// visibleDir is a temporary folder the sandbox shows (not under /tmp,
// which it replaces): for what lies beside or above a project.
func visibleDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/var/tmp", "agent-shell-test-")
	if err != nil {
		t.Fatalf("a folder the sandbox shows is needed: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// TestOtherProjectsRecordsAreHidden: the agent ran at a repository's
// top, and now runs in a folder of it; it also keeps records in another
// project (Masked). A command reads neither's sessions, while it still
// sees the folders themselves.
func TestOtherProjectsRecordsAreHidden(t *testing.T) {
	needBwrap(t)
	base := visibleDir(t)
	for rel, content := range map[string]string{
		"repo/.agent/sessions/s.jsonl":  "SECRET-PARENT-SESSION",
		"repo/.agent/audit.jsonl":       "SECRET-PARENT-AUDIT",
		"repo/pkg/main.go":              "package main\n",
		"other/.agent/sessions/o.jsonl": "SECRET-OTHER-SESSION",
		"other/readme.txt":              "other-visible",
	} {
		p := filepath.Join(base, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o600)
	}
	dir := filepath.Join(base, "repo", "pkg")
	o := Options{Masked: []string{filepath.Join(base, "other", ".agent")}}
	res := runIn(t, New(dir, o), "cat ../.agent/sessions/s.jsonl ../.agent/audit.jsonl ../../other/.agent/sessions/o.jsonl ../../other/readme.txt; ls -A ../.agent; touch ../.agent/x || echo refused")
	for _, bad := range []string{"SECRET-PARENT-SESSION", "SECRET-PARENT-AUDIT", "SECRET-OTHER-SESSION"} {
		if strings.Contains(res.Content, bad) {
			t.Errorf("%s was read in the sandbox:\n%s", bad, res.Content)
		}
	}
	if !strings.Contains(res.Content, "other-visible") || !strings.Contains(res.Content, "refused") {
		t.Errorf("output %q: want the other project's files read, its .agent refused", res.Content)
	}
	// The same through the Sandbox API, as a project's server starts.
	bwrap, _ := FindBwrap(exec.LookPath)
	sb := ProgramSandbox(dir, o)
	sb.Bwrap, sb.Env = bwrap, []string{"PATH=/usr/bin:/bin"}
	cmd, err := sb.Command("/bin/sh", "-c", "cat ../.agent/sessions/s.jsonl ../../other/.agent/sessions/o.jsonl; echo done")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := cmd.CombinedOutput()
	if strings.Contains(string(out), "SECRET") || !strings.Contains(string(out), "done") {
		t.Errorf("a program read another project's records:\n%s", out)
	}
}

// TestGitLinkIntoACacheIsWatched: the project's .git is a link to a
// folder of a writable cache that is not there yet; a command that makes
// a repository there (which the person's git status in the project would
// read) has it moved away, and the person is told.
func TestGitLinkIntoACacheIsWatched(t *testing.T) {
	needBwrap(t)
	needGit(t)
	base := t.TempDir()
	cache, dir := filepath.Join(base, "cache"), filepath.Join(base, "proj")
	os.MkdirAll(cache, 0o755)
	os.MkdirAll(dir, 0o755)
	target := filepath.Join(cache, "repo.git")
	if err := os.Symlink(target, filepath.Join(dir, ".git")); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "PWNED")
	tool := New(dir, Options{Caches: []string{cache}, ToolDirs: []string{}})
	res := runIn(t, tool, "git init -q --bare "+target+" && git --git-dir="+target+" config core.fsmonitor 'touch "+marker+"' && echo made")
	if !strings.Contains(res.Content, "made") {
		t.Fatalf("the command failed: %s\n%s", res.Message, res.Content)
	}
	if _, err := os.Lstat(target); err == nil {
		t.Error("the repository made behind .git's link is still there")
	}
	if len(res.Alerts) != 1 || !strings.Contains(res.Alerts[0], target) || !strings.Contains(res.Alerts[0], ".git links to it") {
		t.Errorf("alerts = %q", res.Alerts)
	}
	if gitStatusRuns(t, dir, marker) {
		t.Fatal("git status in the project ran what the command made behind .git's link")
	}
}

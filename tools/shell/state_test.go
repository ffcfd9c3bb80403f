package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAgentRecordsAreHidden: the agent's records in .agent (sessions,
// audit log, background jobs and their output) cannot be read by a
// command, while the rest of .agent (skills, config) still reads, and a
// link there is not followed out of the sandbox's view.
func TestAgentRecordsAreHidden(t *testing.T) {
	needBwrap(t)
	home := filepath.Join(t.TempDir(), "home")
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("SECRET-KEY"), 0o600)
	dir := project(t, map[string]string{
		".agent/sessions/s1.jsonl":    "SECRET-SESSION",
		".agent/audit.jsonl":          "SECRET-AUDIT",
		".agent/jobs/1.log":           "SECRET-JOBLOG",
		".agent/jobs.db":              "SECRET-JOBSDB",
		".agent/skills/s/SKILL.md":    "skill-visible",
		".agent/config.toml":          "config-visible",
		".agent/backups/.placeholder": "",
	})
	os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(dir, ".agent", "keys"))
	tool := New(dir, Options{Env: append(os.Environ(), "HOME="+home), Caches: []string{}, ToolDirs: []string{}})
	res := runIn(t, tool, "ls -A .agent; cat .agent/sessions/s1.jsonl .agent/audit.jsonl .agent/jobs/1.log .agent/jobs.db .agent/keys/id_rsa .agent/skills/s/SKILL.md .agent/config.toml; touch .agent/new 2>&1 || echo refused")
	for _, secret := range []string{"SECRET-SESSION", "SECRET-AUDIT", "SECRET-JOBLOG", "SECRET-JOBSDB", "SECRET-KEY"} {
		if strings.Contains(res.Content, secret) {
			t.Errorf("%s was read in the sandbox:\n%s", secret, res.Content)
		}
	}
	for _, want := range []string{"skill-visible", "config-visible", "refused", "keys"} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Content)
		}
	}
	for _, name := range []string{"sessions", "audit.jsonl", "jobs", "jobs.db"} {
		for _, line := range strings.Split(res.Content, "\n") {
			if line == name {
				t.Errorf(".agent/%s is listed in the sandbox:\n%s", name, res.Content)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".agent", "new")); err == nil {
		t.Error("a command created a file in .agent")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".agent", "audit.jsonl")); string(b) != "SECRET-AUDIT" {
		t.Errorf("the audit log changed: %q", b)
	}
}

// TestAgentRecordsWrittenLaterAreHidden: records the agent writes while a
// command runs (the first audit line, a new session, a job's output file)
// do not appear in the sandbox either, though they did not exist when
// it started.
func TestAgentRecordsWrittenLaterAreHidden(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	tool := New(dir, Options{Caches: []string{}, ToolDirs: []string{}})
	started, proceed := filepath.Join(dir, "started"), filepath.Join(dir, "proceed")
	done := make(chan string, 1)
	go func() {
		res := runIn(t, tool, "touch started; while [ ! -e proceed ]; do sleep 0.02; done; ls -AR .agent; cat .agent/audit.jsonl .agent/sessions/late.jsonl .agent/jobs/7.log .agent/later.txt")
		done <- res.Content
	}()
	waitFile(t, started)
	for rel, content := range map[string]string{
		"audit.jsonl":          "SECRET-LATE-AUDIT",
		"sessions/late.jsonl":  "SECRET-LATE-SESSION",
		"jobs/7.log":           "SECRET-LATE-JOBLOG",
		"later.txt":            "LATE-OTHER",
		"skills/late/SKILL.md": "LATE-SKILL",
	} {
		p := filepath.Join(dir, ".agent", rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(proceed, nil, 0o644)
	var out string
	select {
	case out = <-done:
	case <-time.After(time.Minute):
		t.Fatal("the command did not end")
	}
	if strings.Contains(out, "LATE") {
		t.Errorf("a record written after the command started was read:\n%s", out)
	}
}

// waitFile waits for the command under test to make path.
func waitFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Fatalf("%s never appeared", path)
}

// TestSandboxCommand starts a program through the exported Sandbox, as a
// project's MCP server starts: its environment is exactly the one given,
// the home is hidden, a read-only folder shows through it, its own cache
// folder is writable, the network is as asked, and it runs in a session
// of its own, with its data and /tmp bounded.
func TestSandboxCommand(t *testing.T) {
	needBwrap(t)
	bwrap, err := FindBwrap(exec.LookPath)
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	home := filepath.Join(base, "home")
	tool := filepath.Join(home, ".local", "toolchain")
	cache := filepath.Join(home, ".cache", "own")
	for _, d := range []string{tool, cache, filepath.Join(home, ".ssh")} {
		os.MkdirAll(d, 0o700)
	}
	os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("SECRET-KEY"), 0o600)
	os.WriteFile(filepath.Join(tool, "lib.txt"), []byte("toolchain-visible"), 0o600)
	dir := project(t, nil)
	t.Setenv("AGENT_SANDBOX_PROBE", "leaked")
	script := `env; cat "$HOME/.ssh/id_rsa" ` + tool + `/lib.txt; echo own > ` + cache + `/c.txt; touch ` + tool + `/x 2>/dev/null || echo tool-read-only
echo made > made.txt; echo "interfaces=$(grep -vc -e lo: -e Inter -e face /proc/net/dev)"; echo "data=$(ulimit -d)"; echo "tmp=$(df -k /tmp | tail -1)"`
	for _, net := range []bool{false, true} {
		sb := Sandbox{Bwrap: bwrap, Root: dir, Home: home, ReadOnly: []string{tool}, Writable: []string{cache}, Network: net,
			TmpSize: 1 << 20, MemoryLimit: 1 << 30, Env: []string{"HOME=" + home, "PATH=/usr/bin:/bin", "ONLY=this"}}
		cmd, err := sb.Command("/bin/sh", "-c", script)
		if err != nil {
			t.Fatal(err)
		}
		if cmd.SysProcAttr == nil || !cmd.SysProcAttr.Setsid {
			t.Error("the program does not start in a session of its own")
		}
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("network %v: %v: %s", net, err, b)
		}
		got := string(b)
		wants := []string{"ONLY=this", "toolchain-visible", "tool-read-only", "data=1048576\n"}
		if SizeBounds(bwrap) {
			wants = append(wants, " 1024 ") // /tmp's 1K-blocks
		}
		for _, want := range wants {
			if !strings.Contains(got, want) {
				t.Errorf("network %v: output lacks %q:\n%s", net, want, got)
			}
		}
		for _, bad := range []string{"SECRET-KEY", "AGENT_SANDBOX_PROBE"} {
			if strings.Contains(got, bad) {
				t.Errorf("network %v: output holds %q:\n%s", net, bad, got)
			}
		}
		if strings.Contains(got, "interfaces=0\n") == net {
			t.Errorf("network %v: the interfaces other than lo say otherwise:\n%s", net, got)
		}
		if c, _ := os.ReadFile(filepath.Join(cache, "c.txt")); string(c) != "own\n" {
			t.Errorf("network %v: its own cache was not written: %q", net, c)
		}
		if c, _ := os.ReadFile(filepath.Join(dir, "made.txt")); string(c) != "made\n" {
			t.Errorf("network %v: the project was not written: %q", net, c)
		}
	}
}

// TestSandboxReadOnlyRoot: with ReadOnlyRoot the program reads the
// project and writes none of it (a language server), and the agent's
// records in .agent stay hidden all the same.
func TestSandboxReadOnlyRoot(t *testing.T) {
	needBwrap(t)
	bwrap, err := FindBwrap(exec.LookPath)
	if err != nil {
		t.Fatal(err)
	}
	dir := project(t, map[string]string{"a.txt": "readable\n", ".agent/sessions/s.jsonl": "SECRET-SESSION"})
	sb := Sandbox{Bwrap: bwrap, Root: dir, ReadOnlyRoot: true, Env: []string{"PATH=/usr/bin:/bin"}}
	cmd, err := sb.Command("/bin/sh", "-c", "cat a.txt .agent/sessions/s.jsonl; echo x > b.txt || echo project-read-only")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := cmd.CombinedOutput()
	got := string(b)
	if !strings.Contains(got, "readable") || !strings.Contains(got, "project-read-only") || strings.Contains(got, "SECRET") {
		t.Errorf("output %q: want a.txt read, b.txt refused, the session hidden", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil {
		t.Error("b.txt was written in a read-only project")
	}
}

// TestSandboxRefusesWhatItCannotHide: a project folder that holds the
// home, or /, is refused before anything runs.
func TestSandboxRefusesWhatItCannotHide(t *testing.T) {
	home := t.TempDir()
	for _, sb := range []Sandbox{
		{Bwrap: "/usr/bin/bwrap", Root: filepath.Dir(home), Home: home},
		{Bwrap: "/usr/bin/bwrap", Root: home, Home: home},
		{Bwrap: "/usr/bin/bwrap", Root: "/", Home: home},
		{Bwrap: "/usr/bin/bwrap", Root: "relative", Home: home},
		{Root: t.TempDir(), Home: home},
	} {
		if _, err := sb.Command("/bin/true"); err == nil {
			t.Errorf("root %q, home %q, bwrap %q: no error", sb.Root, sb.Home, sb.Bwrap)
		}
	}
}

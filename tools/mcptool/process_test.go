package mcptool

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStoppingAServerEndsItsChildren: a server that started a child of
// its own (which would outlive it) is stopped with that child.
func TestStoppingAServerEndsItsChildren(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	c, servers := Discover(context.Background(), []Spec{fakeSpec(t, "parent", "child:"+pidFile)}, Options{Timeout: 10 * time.Second})
	if servers[0].Err != nil {
		c.Close()
		t.Fatal(servers[0].Err)
	}
	b, err := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(string(b))
	if err != nil || pid <= 0 || gone(pid) {
		c.Close()
		t.Fatalf("the server's child is not running (pid %q, %v)", b, err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	c.Close()
	for deadline := time.Now().Add(10 * time.Second); !gone(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server's child (pid %d) still runs after the server was stopped", pid)
		}
	}
}

// gone reports whether process pid has ended (a zombie has).
func gone(pid int) bool {
	st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(st)
	return strings.HasPrefix(strings.TrimSpace(s[strings.LastIndexByte(s, ')')+1:]), "Z")
}

// TestThisAgentsServeIsNotStarted: a server whose program is this very
// executable, asked to serve, is refused with one line, and so is one
// that starts it wrapped: through sh -c, env, a link or a copy of it;
// the same program with other arguments starts, and so does a copy of
// it asked for something else.
func TestThisAgentsServeIsNotStarted(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copied := filepath.Join(dir, "myagent")
	data, err := os.ReadFile(exe)
	if err != nil || os.WriteFile(copied, data, 0o755) != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(dir, "linked")
	if err := os.Symlink(exe, linked); err != nil {
		t.Fatal(err)
	}
	spec := func(name, command string, args ...string) Spec {
		s := fakeSpec(t, name, "ok")
		s.Command, s.Args, s.Dir = command, args, dir
		return s
	}
	refused := []Spec{
		spec("self", exe, "serve", "--stdio"),
		spec("viash", "sh", "-c", "mkdir -p sub && cd sub && "+exe+" serve --stdio"),
		spec("viaenv", "env", exe, "serve", "--stdio", "--dir", "/tmp"),
		spec("copy", "./myagent", "serve", "--stdio"),
		spec("copysh", "sh", "-c", "exec ./myagent serve --stdio"),
		spec("link", linked, "serve"),
	}
	started := []Spec{
		spec("other", exe, "--served"),
		spec("othercopy", "./myagent", "--served"),
	}
	c, servers := Discover(context.Background(), append(refused, started...), Options{Timeout: 10 * time.Second})
	defer c.Close()
	for _, s := range refused {
		err := byName(servers, s.Name).Err
		if err == nil || !strings.Contains(err.Error(), "this agent's own serve") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want one line saying it is this agent's own serve", s.Name, err)
		}
	}
	for _, s := range started {
		if err := byName(servers, s.Name).Err; err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
	}
	// Another program with the word serve is not this agent.
	c2, others := Discover(context.Background(), []Spec{spec("word", "sh", "-c", "true serve")}, Options{Timeout: 10 * time.Second})
	c2.Close()
	if err := others[0].Err; err != nil && strings.Contains(err.Error(), "own serve") {
		t.Errorf("sh -c 'true serve' was taken for this agent: %v", err)
	}
}

// TestSandboxedServerStartsThroughTheSandbox: a Sandboxed server starts
// only through Options.Sandbox, which gets its program, arguments and
// environment; without the hook, or when it fails, the server does not
// start, and its error says why.
func TestSandboxedServerStartsThroughTheSandbox(t *testing.T) {
	envFile := filepath.Join(t.TempDir(), "env.txt")
	spec := fakeSpec(t, "boxed", "env:"+envFile)
	spec.Sandboxed, spec.Network = true, false
	var got Spec
	wrap := func(s Spec, prog string, args, env []string) (*exec.Cmd, Guard, error) {
		got = s
		cmd := exec.Command(prog, args...)
		cmd.Env = append(env, "WRAPPED=yes")
		return cmd, nil, nil
	}
	c, servers := Discover(context.Background(), []Spec{spec}, Options{Timeout: 10 * time.Second, Sandbox: wrap})
	c.Close()
	if servers[0].Err != nil {
		t.Fatal(servers[0].Err)
	}
	if b, _ := os.ReadFile(envFile); !strings.Contains(string(b), "WRAPPED=yes") || !strings.Contains(string(b), "FAKE_MCP=env:") {
		t.Errorf("the server did not start through the sandbox hook with its environment:\n%s", b)
	}
	if got.Name != "boxed" || got.Network {
		t.Errorf("the hook got %+v", got)
	}

	for name, opts := range map[string]Options{
		"no hook": {Timeout: 10 * time.Second},
		"hook failed": {Timeout: 10 * time.Second, Sandbox: func(Spec, string, []string, []string) (*exec.Cmd, Guard, error) {
			return nil, nil, errors.New("no bubblewrap here")
		}},
	} {
		os.Remove(envFile)
		c, servers := Discover(context.Background(), []Spec{spec}, opts)
		c.Close()
		if servers[0].Err == nil {
			t.Errorf("%s: the sandboxed server started", name)
		}
		if _, err := os.Stat(envFile); err == nil {
			t.Errorf("%s: the server ran", name)
		}
	}
}

// TestFailedServerSaysWhy: a server program that fails before it
// answers is reported with the last line it wrote on stderr, escaped.
func TestFailedServerSaysWhy(t *testing.T) {
	c, servers := Discover(context.Background(), []Spec{fakeSpec(t, "broken", "complain")}, Options{Timeout: 10 * time.Second})
	c.Close()
	err := servers[0].Err
	if err == nil || !strings.HasSuffix(err.Error(), "; it said: /usr/bin/env: 'python9': No such file or directory\\x1b[2J") {
		t.Errorf("err = %v, want its last words on stderr, escaped", err)
	}
}

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
// executable, asked to serve, is refused with one line; the same program
// with other arguments starts.
func TestThisAgentsServeIsNotStarted(t *testing.T) {
	self := fakeSpec(t, "self", "ok")
	self.Args = []string{"serve", "--stdio"}
	other := fakeSpec(t, "other", "ok")
	other.Args = []string{"--served"}
	c, servers := Discover(context.Background(), []Spec{self, other}, Options{Timeout: 10 * time.Second})
	defer c.Close()
	err := byName(servers, "self").Err
	if err == nil || !strings.Contains(err.Error(), "this agent's own serve") || strings.Contains(err.Error(), "\n") {
		t.Errorf("self: err = %v, want one line saying it is this agent's own serve", err)
	}
	if s := byName(servers, "other"); s.Err != nil {
		t.Errorf("other: %v", s.Err)
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

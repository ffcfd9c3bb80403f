package shell

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
)

func TestWritesOutsideTheProjectAreRefused(t *testing.T) {
	needBwrap(t)
	dir := project(t, map[string]string{"a.txt": "a\n"})
	outside := filepath.Join(filepath.Dir(dir), "outside.txt")
	tool := New(dir, Options{})
	cases := []struct {
		name, command, hostPath string
		private                 bool // lands in the sandbox's own /tmp, not refused
	}{
		{"system folder", "echo x > /usr/agent-escape-probe", "/usr/agent-escape-probe", false},
		{"next to the project", "echo x > " + outside, outside, true},
		{"inside .git", "echo x > .git/config", "", false},
		{"new file in .git", "echo x > .git/hook", filepath.Join(dir, ".git/hook"), false},
		{"inside .agent", "mkdir -p .agent/backups && echo x > .agent/config.toml", filepath.Join(dir, ".agent/config.toml"), false},
		{"unmounting .git", "umount .git || umount -l .git", "", false},
		{"remounting .git", "mount -o remount,rw .git", "", false},
		{"raising the process limit", "for f in /sys/fs/cgroup/pids/agent-shell-*/pids.max; do echo max > $f; done", "", false},
		{"a sysctl", "echo sandbox > /proc/sys/kernel/hostname", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := runIn(t, tool, tc.command)
			if !tc.private && (res.IsError() || meta(res, "exit_code") == "0") {
				t.Errorf("%q: exit %s, output %q; want a failure", tc.command, meta(res, "exit_code"), res.Content)
			}
			if tc.hostPath != "" {
				if _, err := os.Stat(tc.hostPath); err == nil {
					t.Errorf("%s exists on the host", tc.hostPath)
				}
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".git/config")); string(b) != "[core]\n" {
		t.Errorf(".git/config = %q, changed", b)
	}
	// The project itself is writable: the refusals above are the sandbox.
	res := runIn(t, tool, "echo hi > b.txt && cat b.txt")
	if meta(res, "exit_code") != "0" || !strings.Contains(res.Content, "hi") {
		t.Fatalf("writing in the project failed: %s %q", res.Message, res.Content)
	}
}

func TestHomeIsHidden(t *testing.T) {
	needBwrap(t)
	base := t.TempDir()
	home := filepath.Join(base, "home")
	for p, c := range map[string]string{
		".ssh/id_rsa":               "SECRET-SSH-KEY",
		".config/agent/config.toml": "SECRET-CONFIG",
		".bash_history":             "SECRET-HISTORY",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(home, p)), 0o700)
		os.WriteFile(filepath.Join(home, p), []byte(c), 0o600)
	}
	dir := project(t, nil)
	env := append(os.Environ(), "HOME="+home)
	tool := New(dir, Options{Env: env, Caches: []string{}, ToolDirs: []string{}})
	res := runIn(t, tool, "cat $HOME/.ssh/id_rsa $HOME/.config/agent/config.toml $HOME/.bash_history "+home+"/.ssh/id_rsa; ls -A $HOME")
	if strings.Contains(res.Content, "SECRET") {
		t.Errorf("a secret of the home reached the output:\n%s", res.Content)
	}
	if !strings.Contains(res.Content, "No such file") {
		t.Errorf("output %q does not show the files missing", res.Content)
	}

	// The real home: only caches and tool folders show through.
	realHome := os.Getenv("HOME")
	if realHome == "" || realHome == "/" {
		return
	}
	tool = New(dir, Options{})
	res = runIn(t, tool, "ls -A ~; cat ~/.config/agent/config.toml ~/.ssh/id_rsa ~/.ssh/id_ed25519")
	for _, name := range []string{".ssh", ".config", ".bash_history", ".bashrc", ".npmrc", ".gitconfig", ".netrc"} {
		for _, line := range strings.Split(res.Content, "\n") {
			if line == name {
				t.Errorf("~/%s is visible in the sandbox:\n%s", name, res.Content)
			}
		}
	}
	if strings.Contains(res.Content, "PRIVATE KEY") {
		t.Error("an ssh key was read")
	}
}

// TestNetworkOff connects to listeners of this machine, with the network
// off (refused) and, to show the test can fail, allowed.
func TestNetworkOff(t *testing.T) {
	needBwrap(t)
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("bash not found (its /dev/tcp makes the connection)")
	}
	addrs := []string{"127.0.0.1"}
	if ifs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range ifs {
			if ip, ok := a.(*net.IPNet); ok && ip.IP.To4() != nil && !ip.IP.IsLoopback() {
				addrs = append(addrs, ip.IP.String()) // a local, non-loopback address
				break
			}
		}
	}
	if len(addrs) == 1 {
		t.Log("no non-loopback address here: only 127.0.0.1 and an unroutable address are tried")
	}
	dir := project(t, nil)
	off := New(dir, Options{})
	on := New(dir, Options{Network: true})
	for _, host := range addrs {
		ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
		cmd := "bash -c 'echo hello > /dev/tcp/" + host + "/" + port + "'"
		res := runIn(t, off, cmd)
		if meta(res, "exit_code") == "0" || meta(res, "network") != "off" {
			t.Errorf("%s with the network off: exit %s, %q; want a refused connection", host, meta(res, "exit_code"), res.Content)
		}
		res = runIn(t, on, cmd)
		if meta(res, "exit_code") != "0" || meta(res, "network") != "on" {
			t.Errorf("%s with the network allowed: exit %s, %q; want a connection", host, meta(res, "exit_code"), res.Content)
		}
	}
	// An address no interface has: no route inside the sandbox, so the
	// kernel refuses at once and no packet leaves the machine.
	res := runIn(t, off, "bash -c 'echo > /dev/tcp/10.255.255.1/9'")
	if !strings.Contains(res.Content, "unreachable") {
		t.Errorf("an outside address with the network off: %q; want network unreachable", res.Content)
	}
}

func TestForkBombIsBounded(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	tool := New(dir, Options{ProcLimit: 64, Grace: 200 * time.Millisecond})
	tool.setup()
	if tool.limit.kind == limitNone {
		t.Skip("no process limit works here (not root with a writable pids cgroup, nor prlimit)")
	}
	t.Logf("process limit: %s", tool.limit.kind)
	began := time.Now()
	res := runIn(t, tool, "bomb() { bomb | bomb & }; bomb; sleep 1", "timeout", "20")
	if res.Code == tools.CodeTimeout {
		t.Fatalf("the fork bomb ran into the timeout: %s", res.Message)
	}
	if !strings.Contains(res.Content, "fork") {
		t.Errorf("no fork failed: %q", termtext.RunePrefix(res.Content, 500))
	}
	if !gone("bomb() {") {
		t.Error("processes of the fork bomb outlived the call")
	}
	if tool.limit.kind == limitCgroup && !strings.Contains(res.Message, "process limit") {
		t.Errorf("message %q does not say the process limit was reached", res.Message)
	}
	t.Logf("fork bomb ended in %s: %s", time.Since(began), res.Message)
}

func TestTimeoutStopsAProcessIgnoringSIGTERM(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	tool := New(dir, Options{Grace: 300 * time.Millisecond})
	began := time.Now()
	res := runIn(t, tool, "trap '' TERM; echo started; sleep 31.4159; sleep 31.4159", "timeout", "1")
	took := time.Since(began)
	if res.Code != tools.CodeTimeout {
		t.Fatalf("Code = %q (%s), want TOOL_TIMEOUT", res.Code, res.Message)
	}
	if !strings.Contains(res.Content, "started") || !strings.Contains(res.Message, `last output line: "started"`) {
		t.Errorf("the output so far is missing: %q, %q", res.Message, res.Content)
	}
	if took > 5*time.Second {
		t.Errorf("the call took %s, want about 1.3s", took)
	}
	if !gone("sleep 31.4159") {
		t.Error("the command is still running after the call")
	}
}

func TestDaemonIsGoneWhenTheCallEnds(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	tool := New(dir, Options{})
	began := time.Now()
	// The third keeps the output pipe open: the call must not wait for it.
	res := runIn(t, tool, "setsid sh -c 'trap \"\" TERM HUP; sleep 27.1828' </dev/null >/dev/null 2>&1 & (nohup sleep 27.1829 >/dev/null 2>&1 &); (sleep 27.1830 &); echo detached")
	if meta(res, "exit_code") != "0" || !strings.Contains(res.Content, "detached") {
		t.Fatalf("%s %q", res.Message, res.Content)
	}
	if took := time.Since(began); took > 3*time.Second {
		t.Errorf("the call took %s: it waited for the daemon", took)
	}
	for _, tok := range []string{"sleep 27.1828", "sleep 27.1829", "sleep 27.1830"} {
		if !gone(tok) {
			t.Errorf("%q outlived the call", tok)
		}
	}
}

func TestCancelStopsTheCommand(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	tool := New(dir, Options{Grace: 200 * time.Millisecond})
	ctx, cancel := contextWithCancel(t)
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	_, err := tools.NewRegistry(tool).Call(ctx, "run_command", map[string]string{"command": "sleep 29.9792"})
	if err == nil {
		t.Fatal("a cancelled call returned no error")
	}
	if !gone("sleep 29.9792") {
		t.Error("the command is still running after the cancel")
	}
}

func TestCheck(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	tool := New(dir, Options{})
	for _, f := range tool.Check(t.Context()) {
		if !f.OK && tool.limit.kind == limitNone && strings.Contains(f.Name, "process limit") {
			t.Logf("%s: %s (this machine offers none)", f.Name, f.Detail)
			continue
		}
		if !f.OK {
			t.Errorf("%s: %s", f.Name, f.Detail)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", ".agent-sandbox-probe")); err == nil {
		t.Error("the probe wrote into .git")
	}
	fs := New(dir, Options{Bwrap: "/nonexistent/bwrap"}).Check(t.Context())
	if len(fs) != 1 || fs[0].OK || !strings.Contains(fs[0].Detail, "bubblewrap") {
		t.Errorf("Check without bubblewrap = %+v", fs)
	}
}

func TestSecretsNotInTheSandboxEnvironment(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	// WORK_GEMINI is named by api_key_env: its name says nothing, and a
	// copy of its value under another name is the same secret.
	tool := New(dir, Options{
		Env:     append(os.Environ(), "MY_API_KEY=SECRET-ENV-VALUE", "GITHUB_TOKEN=SECRET-ENV-VALUE", "WORK_GEMINI=SECRET-ENV-VALUE-2", "PLAIN_COPY=SECRET-ENV-VALUE-2"),
		Secrets: []string{"WORK_GEMINI"},
	})
	res := runIn(t, tool, "env; tr '\\0' '\\n' < /proc/1/environ")
	if strings.Contains(res.Content, "SECRET-ENV-VALUE") {
		t.Errorf("a secret variable reached the command:\n%s", res.Content)
	}
	if !strings.Contains(res.Content, "PATH=") {
		t.Errorf("the environment is missing: %q", short(res.Content))
	}
}

func TestOutputStreamsAsItComes(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	var firstAt time.Time
	var got strings.Builder
	tool := New(dir, Options{Stream: func(ctx contextType, b []byte) {
		if firstAt.IsZero() {
			firstAt = time.Now()
		}
		got.Write(b)
	}})
	res := runIn(t, tool, "echo first; sleep 1; echo second >&2")
	end := time.Now()
	if got.String() != "first\nsecond\n" || res.Content != got.String() {
		t.Errorf("streamed %q, content %q; want stdout and stderr interleaved", got.String(), res.Content)
	}
	if end.Sub(firstAt) < 700*time.Millisecond {
		t.Errorf("the first line arrived %s before the end, want about 1s: not streamed", end.Sub(firstAt))
	}
}

func TestStdinIsEmpty(t *testing.T) {
	needBwrap(t)
	tool := New(project(t, nil), Options{})
	res := runIn(t, tool, "cat; read line || echo stdin-empty", "timeout", "5")
	if res.IsError() || !strings.Contains(res.Content, "stdin-empty") {
		t.Errorf("a command reading stdin: %s %q", res.Message, res.Content)
	}
}

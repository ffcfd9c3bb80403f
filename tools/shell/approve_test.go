package shell

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
)

func TestAllowPrefixes(t *testing.T) {
	allow := []string{"go test", "make test", "npm test", "  gofmt  "}
	cases := []struct {
		cmd  string
		want bool
	}{
		{"go test", true},
		{"go test ./...", true},
		{"go   test\t-run X ./pkg", true},
		{"gofmt -l .", true},
		{"go testify", false},
		{"go", false},
		{"go vet ./...", false},
		{"make test-all", false},
		{"go test; rm -rf x", false},
		{"go test ./... && rm -rf x", false},
		{"go test ./... || true", false},
		{"go test | tee log", false},
		{"go test & rm -rf x", false},
		{"go test `rm -rf x`", false},
		{"go test $(rm -rf x)", false},
		{"go test > /etc/passwd", false},
		{"go test < x", false},
		{"go test\nrm -rf x", false},
		{"go test (x)", false},
		{"go test \\; rm x", false},
		{"", false},
	}
	for _, tc := range cases {
		if got := matchPrefix(tc.cmd, allow); got != tc.want {
			t.Errorf("matchPrefix(%q) = %v, want %v", tc.cmd, got, tc.want)
		}
	}
}

func TestScope(t *testing.T) {
	for _, tc := range []struct{ cmd, key, label string }{
		{"go test ./...", "run_command:go test", "commands starting with go test"},
		{"make", "run_command:make", "commands starting with make"},
		{"  npm   run build --prod", "run_command:npm run", "commands starting with npm run"},
		{"go test && curl x", "run_command:go test && curl x", "exactly this command"},
	} {
		key, label := scope(tc.cmd)
		if key != tc.key || label != tc.label {
			t.Errorf("scope(%q) = %q, %q; want %q, %q", tc.cmd, key, label, tc.key, tc.label)
		}
	}
}

func input(cmd string) tools.Input { return tools.Input{Values: map[string]any{"command": cmd}} }

func TestAllowedAndSandboxOff(t *testing.T) {
	dir := t.TempDir()
	on := New(dir, Options{Allow: []string{"go test"}})
	if !on.Allowed(input("go test ./...")) || on.Allowed(input("go vet")) || on.Allowed(input("go test; id")) {
		t.Error("Allowed does not follow the allow prefixes")
	}
	off := New(dir, Options{NoSandbox: true, Allow: []string{"go test"}})
	if off.Allowed(input("go test ./...")) || off.Sandboxed() {
		t.Error("with the sandbox off an allowed command must still be asked about")
	}
	p, res, err := off.Preview(t.Context(), input("echo hi"))
	if err != nil || res != nil {
		t.Fatalf("Preview = %v, %v", res, err)
	}
	if !strings.Contains(strings.Join(p.Lines, "\n"), "sandbox: OFF") {
		t.Errorf("preview lines %q do not say the sandbox is off", p.Lines)
	}
	// Without the sandbox the command runs with no bubblewrap at all.
	off = New(dir, Options{NoSandbox: true, Bwrap: "/nonexistent/bwrap"})
	r := runIn(t, off, "echo unsandboxed")
	if meta(r, "exit_code") != "0" || !strings.Contains(r.Content, "unsandboxed") {
		t.Errorf("sandbox off: %s %q", r.Message, r.Content)
	}
}

func TestPreview(t *testing.T) {
	needBwrap(t)
	dir := t.TempDir()
	tool := New(dir, Options{NetworkAllow: []string{"go mod download"}})
	p, res, err := tool.Preview(t.Context(), input("go test ./..."))
	if err != nil || res != nil {
		t.Fatalf("Preview = %v, %v", res, err)
	}
	lines := strings.Join(p.Lines, "\n")
	for _, want := range []string{"command: go test ./...", "folder: " + tool.root, "network: off", "agent undo cannot revert a command's changes"} {
		if !strings.Contains(lines, want) {
			t.Errorf("preview lines lack %q:\n%s", want, lines)
		}
	}
	if p.Scope != "run_command:go test" || p.ScopeLabel == "" || p.Summary != "run go test ./..." {
		t.Errorf("preview = %+v", p)
	}
	p, _, _ = tool.Preview(t.Context(), input("go mod download"))
	if !strings.Contains(strings.Join(p.Lines, "\n"), "network: on") {
		t.Errorf("network prefix not shown as on: %q", p.Lines)
	}
	p, _, _ = tool.Preview(t.Context(), input("go mod download; curl x"))
	if !strings.Contains(strings.Join(p.Lines, "\n"), "network: off") {
		t.Errorf("a network prefix with metacharacters must stay off: %q", p.Lines)
	}
}

func TestRefusedBeforeAsking(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		tool *Tool
		in   tools.Input
		code string
		msg  string
	}{
		{"no bubblewrap", New(dir, Options{Bwrap: "/nonexistent/bwrap"}), input("true"), tools.CodePolicyDenied, "bubblewrap"},
		{"empty command", New(dir, Options{}), input("  "), tools.CodeSchemaInvalid, "empty"},
		{"timeout too long", New(dir, Options{}), tools.Input{Values: map[string]any{"command": "true", "timeout": 9999}}, tools.CodeSchemaInvalid, "1 to 600 seconds"},
		{"home inside the project", New(dir, Options{Env: []string{"HOME=" + dir + "/me"}}), input("true"), tools.CodePolicyDenied, "home"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, res, err := tc.tool.Preview(t.Context(), tc.in)
			if err != nil || res == nil || res.Code != tc.code || !strings.Contains(res.Message, tc.msg) || strings.Contains(res.Message, "\n") {
				t.Fatalf("Preview = %+v, %v; want %s mentioning %q", res, err, tc.code, tc.msg)
			}
			got, err := tc.tool.Execute(t.Context(), tc.in)
			if err != nil || got.Code != tc.code {
				t.Errorf("Execute = %+v, %v; want %s", got, err, tc.code)
			}
		})
	}
}

func TestEnvironmentHasNoSecrets(t *testing.T) {
	env := cleanEnv([]string{"PATH=/bin", "GEMINI_API_KEY=k", "GITHUB_TOKEN=t", "SSH_AUTH_SOCK=/tmp/s", "AWS_SECRET_ACCESS_KEY=s", "GOFLAGS=-mod=mod", "TERM=xterm",
		"WORK_GEMINI=AIzaWork", "COPY_OF_IT=AIzaWork", "EMPTY=", "OTHER_EMPTY="}, []string{"WORK_GEMINI", "EMPTY"}, nil)
	got := strings.Join(env, " ")
	for _, bad := range []string{"GEMINI", "GITHUB_TOKEN", "SSH_AUTH_SOCK", "AWS", "xterm", "AIzaWork"} {
		if strings.Contains(got, bad) {
			t.Errorf("environment %q keeps %s", got, bad)
		}
	}
	if slices.Contains(env, "EMPTY=") {
		t.Errorf("environment %q keeps EMPTY, named a secret", got)
	}
	for _, want := range []string{"PATH=/bin", "GOFLAGS=-mod=mod", "NO_COLOR=1", "TERM=dumb", "OTHER_EMPTY="} {
		if !strings.Contains(got, want) {
			t.Errorf("environment %q lacks %s", got, want)
		}
	}
}

func TestDefaultFolders(t *testing.T) {
	env := map[string]string{"HOME": "/home/u", "PATH": "/home/u/go/bin:/home/u/.local/bin:/home/u/.cargo/bin:/home/u/.pyenv/shims:/usr/bin:/home/u"}
	got := strings.Join(DefaultToolDirs(env), " ")
	// Each entry alone, never its parent (~/go holds more than tools).
	if got != "/home/u/go/bin /home/u/.local/bin /home/u/.cargo/bin /home/u/.pyenv/shims" {
		t.Errorf("DefaultToolDirs = %s", got)
	}
	env["GOMODCACHE"] = "/srv/mod"
	got = strings.Join(DefaultCaches(env), " ")
	if got != "/home/u/.cache/go-build /srv/mod /home/u/.npm /home/u/.cache/pip" {
		t.Errorf("DefaultCaches = %s", got)
	}
	o := Options{Env: []string{"HOME=/home/u"}, Caches: []string{"~/c", "rel", "/abs/"}}.withDefaults()
	if strings.Join(o.Caches, " ") != "/home/u/c /abs" {
		t.Errorf("Caches = %q: want ~ expanded and relative paths dropped", o.Caches)
	}
}

func TestUnsandboxedDaemonEndsWithTheCall(t *testing.T) {
	tool := New(t.TempDir(), Options{NoSandbox: true})
	tool.setup()
	if tool.limit.kind != limitCgroup {
		t.Skip("without the sandbox, only a pids cgroup (as root) finds a daemon that left the session")
	}
	res := runIn(t, tool, "setsid sleep 26.535 </dev/null >/dev/null 2>&1 & echo started")
	if !strings.Contains(res.Content, "started") {
		t.Fatalf("%s %q", res.Message, res.Content)
	}
	if !gone("sleep 26.535") {
		t.Error("an unsandboxed daemon outlived the call")
	}
}

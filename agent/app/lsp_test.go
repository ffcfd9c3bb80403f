package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools/programs"
	"github.com/agentcli/agent/tools/shell"
)

// needGopls finds gopls on PATH or in Go's bin folder; under CI a
// missing gopls fails the test, elsewhere skips it.
func needGopls(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("gopls"); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(out)), "bin", "gopls")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("gopls is missing: .ci/run installs it (go install golang.org/x/tools/gopls@v0.23.0)")
	}
	t.Skip("gopls is not installed: go install golang.org/x/tools/gopls@v0.23.0")
	return ""
}

// lspConversation is a conversation over replies in the project dir,
// its configuration the project's file (trusted or not), its programs
// found on PATH with the folder of server added, in the sandbox.
func lspConversation(t *testing.T, dir, server string, trusted bool, replies ...string) (*conversation.Conversation, *llmtest.Script) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bubblewrap is not installed; CI must have it")
		}
		t.Skip("bubblewrap is not installed: language servers run only in the sandbox")
	}
	path := os.Getenv("PATH") + string(filepath.ListSeparator) + filepath.Dir(server)
	t.Setenv("PATH", path)
	b := testBuilder()
	b.LSPWait = 2 * time.Minute // a check ends on the server's events; this only bounds a broken one
	b.LocalConfig = func(root string) (config.Config, error) {
		proj := config.ProjectFile(root)
		return config.Load(config.Input{Files: []string{proj}, Project: proj, Trusted: trusted, Env: map[string]string{"GEMINI_API_KEY": "k"}})
	}
	b.Programs = func(root string, cfg config.Config) *programs.Resolver {
		return programs.New(programs.Options{Path: path, Untrusted: shell.Writable(root, ShellOptions(cfg))})
	}
	script := llmtest.Texts(replies...)
	c, err := b.New(t.Context(), conversation.Options{Dir: dir, Model: script, Policy: agent.PolicyAuto})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, script
}

// TestWriteGetsGoplsDiagnostics: in a Go module, a write_file that uses
// an undefined name is answered with gopls's error (file, line); after
// the fix, the next write's response has none. gopls runs in the
// sandbox.
func TestWriteGetsGoplsDiagnostics(t *testing.T) {
	gopls := needGopls(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "go.mod"), "module example.com/greet\n\ngo 1.22\n")
	writeTestFile(t, filepath.Join(dir, "main.go"), "package main\n\nfunc main() {\n\tgreet()\n}\n")
	c, _ := lspConversation(t, dir, gopls, false,
		read("1", "main.go"), "read",
		create("2", "greet.go", "package main\n\nfunc greet() {\n\tprintln(helo)\n}\n"), "written",
		rewrite("3", "greet.go", "package main\n\nfunc greet() {\n\tprintln(\"hello\")\n}\n"), "fixed")
	say(t, c, "read main.go")
	out := say(t, c, "write greet.go")
	res := out.Calls[0].Result
	if res.Diagnostics == nil || res.Diagnostics.Errors != 1 {
		t.Fatalf("write_file's result: %+v, content %q; want one error", res.Diagnostics, res.Content)
	}
	if !strings.Contains(res.Content, "diagnostics: 1 error in greet.go\ngreet.go:4:10: error: undefined: helo") {
		t.Errorf("the response says %q, want gopls's error with its file and line", res.Content)
	}
	out = say(t, c, "fix it")
	res = out.Calls[0].Result
	if res.Diagnostics == nil || res.Diagnostics.Errors != 0 || res.Diagnostics.Elsewhere != 0 || !strings.Contains(res.Content, "diagnostics: no errors in greet.go") {
		t.Errorf("after the fix: %+v, %q; want no errors", res.Diagnostics, res.Content)
	}
}

// TestProjectServerScriptRunsOnlyOnceTrusted: a project whose
// [lsp.gopls] command is a script of its own runs nothing until it is
// trusted; once trusted the script runs in the sandbox, where the
// person's home is hidden, and writes only its cache folder.
func TestProjectServerScriptRunsOnlyOnceTrusted(t *testing.T) {
	gopls := needGopls(t)
	home := t.TempDir()
	writeTestFile(t, filepath.Join(home, "secret.txt"), "SECRET-OF-THE-HOME")
	t.Setenv("HOME", home)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	for _, trusted := range []bool{false, true} {
		dir := t.TempDir()
		writeTestFile(t, filepath.Join(dir, "go.mod"), "module example.com/greet\n\ngo 1.22\n")
		writeTestFile(t, filepath.Join(dir, ".agent", "config.toml"), "[lsp.gopls]\ncommand = \"./server.sh\"\n")
		script := "#!/bin/sh\n{ echo ran; cat " + home + "/secret.txt; ls -A " + home + "; echo x > made.txt || echo project-read-only; } > \"$XDG_CACHE_HOME/seen\" 2>&1\n"
		writeTestFile(t, filepath.Join(dir, "server.sh"), script)
		os.Chmod(filepath.Join(dir, "server.sh"), 0o755)
		c, _ := lspConversation(t, dir, gopls, trusted,
			create("1", "a.go", "package main\n"), "written")
		say(t, c, "write a.go")
		seen, _ := filepath.Glob(filepath.Join(cache, "agent", "lsp", "gopls-*", "seen"))
		switch {
		case !trusted && len(seen) > 0:
			t.Fatalf("untrusted: the project's script ran (%s)", seen)
		case trusted && len(seen) != 1:
			t.Fatalf("trusted: the script did not run in its cache folder: %v", seen)
		case trusted:
			b, _ := os.ReadFile(seen[0])
			if got := string(b); !strings.Contains(got, "ran") || !strings.Contains(got, "project-read-only") || strings.Contains(got, "SECRET") {
				t.Errorf("the script saw %q: want the home hidden and the project read-only", got)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "made.txt")); err == nil {
			t.Error("the server wrote in the project")
		}
		c.Close()
	}
}

// TestWriteGetsPyrightDiagnostics: the same with pyright, a Node server
// whose package folder the sandbox shows (from .ci/npm): a call with an
// argument of the wrong type, then the fix.
func TestWriteGetsPyrightDiagnostics(t *testing.T) {
	server, err := filepath.Abs("../../.ci/npm/node_modules/.bin/pyright-langserver")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(server); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("pyright-langserver is missing: .ci/run installs it (npm ci in .ci/npm)")
		}
		t.Skip("pyright is not installed: run npm ci in .ci/npm")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "pyproject.toml"), "[project]\nname = \"greet\"\nversion = \"0.1\"\n")
	const def = "def greet(name: str) -> str:\n    return \"hello \" + name\n\n\n"
	c, _ := lspConversation(t, dir, server, false,
		create("1", "greet.py", def+"print(greet(42))\n"), "written",
		rewrite("2", "greet.py", def+"print(greet(\"you\"))\n"), "fixed")
	res := say(t, c, "write greet.py").Calls[0].Result
	if res.Diagnostics == nil || res.Diagnostics.Errors != 1 || !strings.Contains(res.Content, `greet.py:5:13: error: Argument of type "Literal[42]" cannot be assigned to parameter "name" of type "str"`) {
		t.Fatalf("write_file's result: %+v, content %q; want pyright's error", res.Diagnostics, res.Content)
	}
	res = say(t, c, "fix it").Calls[0].Result
	if res.Diagnostics == nil || res.Diagnostics.Errors != 0 {
		t.Errorf("after the fix: %+v, %q; want no errors", res.Diagnostics, res.Content)
	}
}

// TestCommandThatChangesFilesGetsDiagnostics: a command that writes a
// Go file is answered, after its output, with gopls's error in it.
func TestCommandThatChangesFilesGetsDiagnostics(t *testing.T) {
	gopls := needGopls(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "go.mod"), "module example.com/greet\n\ngo 1.22\n")
	writeTestFile(t, filepath.Join(dir, "main.go"), "package main\n\nfunc main() {}\n")
	c, _ := lspConversation(t, dir, gopls, false,
		`<tool_call name="run_command" id="1"><command>printf 'package main\n\nfunc f() { undefinedThing() }\n' > bad.go</command></tool_call>`, "done")
	res := say(t, c, "make bad.go").Calls[0].Result
	if res.IsError() || res.Diagnostics == nil || !strings.Contains(res.Content, "bad.go:3:12: error: undefined: undefinedThing") {
		t.Fatalf("run_command's result: %s %q, %+v; want gopls's error in bad.go", res.Code, res.Content, res.Diagnostics)
	}
}

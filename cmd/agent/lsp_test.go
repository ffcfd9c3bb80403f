package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// goplsDir is the folder of gopls (on PATH, or Go's bin folder, where go
// install puts it); under CI a missing gopls fails the test.
func goplsDir(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("gopls"); err == nil {
		return filepath.Dir(p)
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		bin := filepath.Join(strings.TrimSpace(string(out)), "bin")
		if _, err := os.Stat(filepath.Join(bin, "gopls")); err == nil {
			return bin
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("gopls is missing: .ci/run installs it (go install golang.org/x/tools/gopls@v0.23.0)")
	}
	t.Skip("gopls is not installed: go install golang.org/x/tools/gopls@v0.23.0")
	return ""
}

// TestRunShowsDiagnosticsAndAgentLSPLists: agent run in a Go module,
// the model writing a file with an undefined name: the activity line and
// the summary name gopls's error; agent lsp then lists gopls with that
// last check.
func TestRunShowsDiagnosticsAndAgentLSPLists(t *testing.T) {
	needSandbox(t)
	bin := goplsDir(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/greet\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {\n\tgreet()\n}\n"), 0o644)
	srv := llmtest.NewGeminiServer(t,
		llmtest.Say(`<tool_call name="write_file" id="1"><operation_type>create</operation_type><file_path>greet.go</file_path><content>package main

func greet() {
	println(helo)
}
</content></tool_call>`),
		llmtest.Say("Written."))
	env := map[string]string{"HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir(), "PATH": os.Getenv("PATH") + ":" + bin}
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	run := func(args ...string) (string, string) {
		var out, errOut bytes.Buffer
		d := newFactory(&streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
		d.env = env
		root := newRootCmd(d)
		root.SetArgs(args)
		if err := root.ExecuteContext(t.Context()); err != nil {
			t.Fatalf("agent %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
		}
		return out.String(), errOut.String()
	}
	_, errOut := run("run", "--dir", dir, "--yes", "write greet.go")
	for _, want := range []string{"✓ write_file: created greet.go", "· 1 error\n", "agent: the language servers report 1 left:\n  greet.go:4:10: error: undefined: helo\n"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("agent run's stderr lacks %q:\n%s", want, errOut)
		}
	}
	out, _ := run("lsp", "--dir", dir)
	for _, want := range []string{"gopls  available; last conversation: ended with the conversation", "last check: 1 error in greet.go", "greet.go:4:10: error: undefined: helo"} {
		if !strings.Contains(out, want) {
			t.Errorf("agent lsp lacks %q:\n%s", want, out)
		}
	}
	out, _ = run("lsp", "--dir", dir, "--json")
	for _, want := range []string{`"name": "gopls"`, `"errors": 1`, `"message": "undefined: helo"`, `"last_conversation": "`} {
		if !strings.Contains(out, want) {
			t.Errorf("agent lsp --json lacks %q:\n%s", want, out)
		}
	}
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// The prompt's gitignore matcher is meant to replace the file tools' own:
// it must keep fitting their interface.
var _ sandbox.Ignorer = (*prompt.Ignore)(nil)

// runPromptCmd runs `agent prompt args...` in-process and returns stdout,
// stderr and the exit code.
func runPromptCmd(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	// Keep the user's own configuration out.
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var out, errOut bytes.Buffer
	io := &streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	code := execute(t.Context(), io, append([]string{"prompt"}, args...))
	return out.String(), errOut.String(), code
}

func promptProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"README.md":      "# Demo\n",
		"AGENTS.md":      "Use tabs.\n",
		"src/main.go":    "package main\n",
		"src/util.go":    "package main\n",
		".gitignore":     "bin/\n",
		"bin/demo":       "binary",
		"docs/a/deep.md": "",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestPromptCommandPrintsWhatRunSends compares the command's output with
// the prompt the run path builds (the date line aside, which could change
// at midnight between the two).
func TestPromptCommandPrintsWhatRunSends(t *testing.T) {
	dir := promptProject(t)
	out, errOut, code := runPromptCmd(t, "--dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	files := sandbox.NewRoot(dir, sandbox.Options{})
	defer files.Close()
	p, err := (&factory{}).builder().SystemPrompt(t.Context(), files, testCatalog(t, dir), config.Defaults().Tree)
	if err != nil {
		t.Fatal(err)
	}
	dropDate := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "- Date: ") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if dropDate(out) != dropDate(p.String()) {
		t.Errorf("agent prompt printed:\n%s\nrun would send:\n%s", out, p.String())
	}
	for _, want := range []string{"📝 README.md", "📁 src/", "Use tabs.", "## read_file", "Project folder: " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if strings.Contains(out, "demo") && strings.Contains(out, "bin/") {
		t.Error("prompt shows the ignored bin/ folder")
	}
}

func TestPromptCommandStats(t *testing.T) {
	out, errOut, code := runPromptCmd(t, "--dir", promptProject(t), "--stats")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"section", "role", "protocol", "tools", "environment", "instructions", "tree", "total", "role + protocol + tools:", "instructions file: AGENTS.md", "tree: 9 lines, 6 files"} {
		if !strings.Contains(out, want) {
			t.Errorf("--stats output lacks %q:\n%s", want, out)
		}
	}
}

func TestPromptCommandTreeFlags(t *testing.T) {
	dir := promptProject(t)
	out, _, code := runPromptCmd(t, "--dir", dir, "--style", "plain", "--budget", "3")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	tree := out[strings.Index(out, "# Project files"):]
	if strings.Contains(tree, "📁") || strings.Contains(tree, "📝") {
		t.Errorf("plain style shows emoji:\n%s", tree)
	}
	lines := strings.Split(strings.TrimSpace(tree), "\n")
	if n := len(lines) - 4; n > 3 { // heading, blank, summary, blank
		t.Errorf("tree has %d lines with --budget 3:\n%s", n, tree)
	}
}

// TestPromptCommandReadsTreeConfig: the [tree] settings of the project's
// configuration shape the tree, as they do for a run; flags win.
func TestPromptCommandReadsTreeConfig(t *testing.T) {
	dir := promptProject(t)
	cfg := filepath.Join(dir, ".agent", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("[tree]\nbudget = 2\nstyle = \"plain\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runPromptCmd(t, "--dir", dir, "--stats")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "tree: 2 lines") {
		t.Errorf("tree.budget = 2 not applied:\n%s", out)
	}
	out, _, _ = runPromptCmd(t, "--dir", dir)
	if strings.Contains(out, "📝") {
		t.Errorf("tree.style = plain not applied:\n%s", out)
	}
	out, _, _ = runPromptCmd(t, "--dir", dir, "--style", "emoji", "--budget", "5")
	if !strings.Contains(out, "📝 ") {
		t.Errorf("--style emoji did not win over the configuration:\n%s", out)
	}
	out, _, _ = runPromptCmd(t, "--dir", dir, "--budget", "5", "--stats")
	if !strings.Contains(out, "tree: 5 lines") {
		t.Errorf("--budget 5 did not win over the configuration:\n%s", out)
	}
}

func TestPromptCommandUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--style", "fancy"},
		{"--budget", "-1"},
		{"--budget", "0"},
		{"--dir", filepath.Join(t.TempDir(), "missing")},
		{"extra"},
	} {
		_, errOut, code := runPromptCmd(t, args...)
		if code != exitUsage {
			t.Errorf("agent prompt %v: exit %d, want %d (%s)", args, code, exitUsage, errOut)
		}
	}
}

// testCatalog returns the built-in tools of the project at dir with the
// default settings, closed when the test ends.
func testCatalog(t *testing.T, dir string) *tools.Registry {
	t.Helper()
	set, err := (&factory{}).catalog(t.Context(), dir, config.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { set.Close() })
	return set.Registry()
}

// TestPromptCommandForms: --stats says which form of the prompt the next
// run would send and why: the full one when the window is unknown or
// large, the small-window one for a 4,096-token window, configured or
// told by the server (a llama.cpp's /props, asked briefly); and `agent
// prompt` prints that form.
func TestPromptCommandForms(t *testing.T) {
	cleanEnv(t)
	dir := promptProject(t)
	out, _, code := runPromptCmd(t, "--dir", dir, "--stats")
	if code != 0 || !strings.Contains(out, "form: full (the model's window is unknown") {
		t.Errorf("no window: exit %d\n%s", code, out)
	}
	t.Setenv("GEMINI_API_KEY", "k")
	t.Setenv("AGENT_CONTEXT_WINDOW", "4096")
	out, _, code = runPromptCmd(t, "--dir", dir, "--stats")
	if code != 0 || !strings.Contains(out, "form: small-window (the window of 4096 tokens is small") || !strings.Contains(out, "tools only named:") {
		t.Errorf("a 4096-token window: exit %d\n%s", code, out)
	}
	t.Setenv("AGENT_CONTEXT_WINDOW", "65536")
	out, _, _ = runPromptCmd(t, "--dir", dir, "--stats")
	if !strings.Contains(out, "form: full (the window of 65536 tokens leaves") {
		t.Errorf("a large window:\n%s", out)
	}

	cleanEnv(t)
	t.Setenv("AGENT_CONTEXT_WINDOW", "")
	s := llmtest.NewLlamaCppServer(t, 4096)
	t.Setenv("OPENAI_BASE_URL", s.URL)
	t.Setenv("AGENT_PROVIDER", "llamacpp")
	out, _, code = runPromptCmd(t, "--dir", dir, "--stats")
	for _, want := range []string{"window: 4,096 tokens, from llama.cpp /props", "form: small-window"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("llama.cpp: exit %d, output lacks %q:\n%s", code, want, out)
		}
	}
	out, _, _ = runPromptCmd(t, "--dir", dir)
	if !strings.Contains(out, "Also available (a call with wrong parameters") || strings.Contains(out, "## note_create") {
		t.Errorf("agent prompt does not print the small-window form:\n%s", out)
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("%d generation requests; the window question is no generation", n)
	}
}

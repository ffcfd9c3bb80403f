package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// agentIn runs the agent in-process in the project dir with the scripted
// model and no terminal, and returns its stdout, stderr and exit code.
func agentIn(t *testing.T, dir string, model *llmtest.Script, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	d := newFactory(&streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	d.newModel = func(context.Context, config.Config) (llm.Model, error) { return model, nil }
	d.env = map[string]string{"GEMINI_API_KEY": "test-key", "XDG_CONFIG_HOME": t.TempDir(), "HOME": t.TempDir(), "PATH": os.Getenv("PATH")}
	root := newRootCmd(d)
	root.SetArgs(append(args, "--dir", dir))
	err := root.ExecuteContext(t.Context())
	if err != nil {
		errOut.WriteString(err.Error())
	}
	return out.String(), errOut.String(), exitCode(err)
}

func makefileProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte("test:\n\tgo test ./...\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestInitWithNobodyToAskWritesNothing: agent init with no terminal and
// no --yes asks the model nothing, writes nothing, says so and exits 4;
// with --yes it writes the draft.
func TestInitWithNobodyToAskWritesNothing(t *testing.T) {
	dir := makefileProject(t)
	answers := []string{
		`<tool_call name="read_file"><file_path>Makefile</file_path></tool_call>`,
		`<tool_call name="write_file"><operation_type>create</operation_type><file_path>AGENTS.md</file_path><content>
# AGENTS.md

- Test: ` + "`make test`" + `
</content></tool_call>`,
		"Wrote AGENTS.md: the test command.",
	}
	model := llmtest.Texts(answers...)
	_, errOut, code := agentIn(t, dir, model, "init")
	if code != exitRefused || !strings.Contains(errOut, "nobody can approve writing AGENTS.md here (no terminal to ask, or approval never), so nothing was written and the model was not asked") {
		t.Errorf("exit %d, stderr %q; want 4 and the reason", code, errOut)
	}
	if n := len(model.Requests()); n != 0 {
		t.Errorf("the model was asked %d times", n)
	}
	if _, err := os.Stat(filepath.Join(dir, "AGENTS.md")); err == nil {
		t.Errorf("AGENTS.md was written")
	}

	model = llmtest.Texts(answers...)
	out, errOut, code := agentIn(t, dir, model, "init", "--yes")
	if code != exitOK || !strings.Contains(out, "Wrote AGENTS.md") {
		t.Fatalf("--yes: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "AGENTS.md")); !strings.Contains(string(got), "`make test`") {
		t.Errorf("AGENTS.md = %q", got)
	}
	if !strings.Contains(errOut, "created AGENTS.md") {
		t.Errorf("the summary does not name AGENTS.md:\n%s", errOut)
	}
}

// TestSessionsExport: agent sessions export prints the last conversation
// (or the one named) as Markdown; -o writes a file and replaces one only
// with --force; an unknown id is bad usage.
func TestSessionsExport(t *testing.T) {
	dir := makefileProject(t)
	model := llmtest.Texts(`<tool_call name="read_file"><file_path>Makefile</file_path></tool_call>`, "The tests run with `make test`.")
	if _, errOut, code := agentIn(t, dir, model, "run", "how do I run the tests?"); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	out, errOut, code := agentIn(t, dir, nil, "sessions", "export")
	if code != exitOK {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"# Conversation ", "## You\n\nhow do I run the tests?\n", "## Agent\n\n- **read_file** file_path=Makefile\n  ✓ Makefile: lines 1-2 of 2\n  ```\n  test:\n  \tgo test ./...\n  ```\n\nThe tests run with `make test`.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("export lacks %q:\n%s", want, out)
		}
	}
	id := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(out, "\n", 2)[0], "# Conversation "))

	file := filepath.Join(t.TempDir(), "conv.md")
	if _, errOut, code := agentIn(t, dir, nil, "sessions", "export", id, "-o", file); code != exitOK {
		t.Fatalf("export -o: exit %d: %s", code, errOut)
	}
	if got, _ := os.ReadFile(file); string(got) != out {
		t.Errorf("the file differs from what was printed:\n%s", got)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode is %v, want readable by its owner only", fi.Mode().Perm())
	}
	if _, errOut, code := agentIn(t, dir, nil, "sessions", "export", id, "-o", file); code != exitUsage || !strings.Contains(errOut, "--force") {
		t.Errorf("export over a file: exit %d, %q; want 2 naming --force", code, errOut)
	}
	if _, errOut, code := agentIn(t, dir, nil, "sessions", "export", id, "-o", file, "--force"); code != exitOK {
		t.Errorf("export --force: exit %d: %s", code, errOut)
	}
	if _, _, code := agentIn(t, dir, nil, "sessions", "export", "20200101-000000-00000000"); code != exitUsage {
		t.Errorf("export of an unknown session: exit %d, want %d", code, exitUsage)
	}
}

// TestInitTmux: agent init on a real terminal, against a fake provider
// on 127.0.0.1: the model reads the Makefile, its draft of AGENTS.md is
// shown as a diff and asked about like any write, and "y" writes it,
// naming make test.
func TestInitTmux(t *testing.T) {
	c := startTmuxRun(t, 100, 40, `until [ -e Makefile ]; do sleep 0.05; done; agent init`,
		llmtest.Say(`<tool_call name="read_file"><file_path>Makefile</file_path></tool_call>`),
		tmuxWriteOf("AGENTS.md", "# AGENTS.md\n\n## Build and test\n\n- `make test` runs the Go tests."),
		llmtest.Say("AGENTS.md names `make test` as the way to run the tests."),
	)
	c.write("Makefile", "test:\n\tgo test ./...\n")
	s := c.waitFor("the question about AGENTS.md", "allow write_file")
	if !strings.Contains(s, "+- `make test` runs the Go tests.") {
		t.Fatalf("the diff of AGENTS.md is not on the screen:\n%s", s)
	}
	c.typeLine("y")
	s = c.waitFor("the end of init", "[exit 0]")
	if !strings.Contains(s, "AGENTS.md names `make test`") {
		t.Errorf("the answer is not on the terminal:\n%s", s)
	}
	if got := c.read("AGENTS.md"); !strings.Contains(got, "`make test`") {
		t.Errorf("AGENTS.md = %q, want it to name make test", got)
	}
	reqs := c.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if first := reqs[0].LastUser(); !strings.Contains(first, "draft this project's AGENTS.md") {
		t.Errorf("the first request is not init's instruction:\n%s", first)
	}
}

package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
)

// fixture copies the fixture Go project into a new project folder.
func fixture(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", "shell", "goproject")
	files := map[string]string{}
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(b)
	}
	return project(t, files)
}

func needGo(t *testing.T) {
	t.Helper()
	needBwrap(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not found")
	}
}

// TestGoTestThroughTheProtocol runs go test on the fixture project as the
// loop does (registry call, rendered response): a pass, then a failure
// whose output reaches the model.
func TestGoTestThroughTheProtocol(t *testing.T) {
	needGo(t)
	dir := fixture(t)
	tool := New(dir, Options{Allow: []string{"go test"}})
	reg := tools.NewRegistry(tool)
	call := map[string]string{"command": "go test ./..."}

	if !tool.Allowed(tools.Input{Values: map[string]any{"command": call["command"]}}) {
		t.Error("go test ./... is not allowed by the prefix go test")
	}
	res, err := reg.Call(t.Context(), "run_command", call)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError() || meta(res, "exit_code") != "0" || !strings.Contains(res.Content, "ok") || !strings.Contains(res.Content, "example.com/calc") {
		t.Fatalf("go test on the fixture: %s %s\n%s", res.Code, res.Message, res.Content)
	}

	calc := filepath.Join(dir, "calc.go")
	b, _ := os.ReadFile(calc)
	os.WriteFile(calc, []byte(strings.Replace(string(b), "return a + b", "return a - b", 1)), 0o644)
	res, err = reg.Call(t.Context(), "run_command", call)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError() || meta(res, "exit_code") != "1" {
		t.Fatalf("a failing test: %s %s, exit %s; want exit code 1", res.Code, res.Message, meta(res, "exit_code"))
	}
	rendered := xmlcall.RenderString(xmlcall.Response{
		ID: "1", Name: "run_command", Params: []xmlcall.Param{{Name: "command", Value: call["command"]}},
		Code: res.Code, Message: res.Message, Metadata: attrs(res.Metadata), Content: res.Content,
	})
	for _, want := range []string{"--- FAIL: TestAdd", "Add(2, 3) = -1, want 5", `exit_code="1"`, "FAIL"} {
		if !strings.Contains(rendered, want) {
			t.Errorf("the response to the model lacks %q:\n%s", want, rendered)
		}
	}
}

func attrs(in []tools.Attr) []xmlcall.Attr {
	out := make([]xmlcall.Attr, len(in))
	for i, a := range in {
		out[i] = xmlcall.Attr{Name: a.Name, Value: a.Value}
	}
	return out
}

// TestChangedFilesAfterAFormatter formats a project: the list names the
// files gofmt rewrote, the one created and the one deleted, and not the
// gitignored ones.
func TestChangedFilesAfterAFormatter(t *testing.T) {
	needGo(t)
	dir := project(t, map[string]string{
		"go.mod":       "module example.com/f\n\ngo 1.22\n",
		"good.go":      "package f\n\nfunc Good() {}\n",
		"bad.go":       "package f\nfunc  Bad( ) {  }\n",
		"sub/worse.go": "package sub\nvar   X=1\n",
		"old.txt":      "old\n",
		".gitignore":   "build/\n",
		"build/out.go": "package out\nvar   Y=2\n",
	})
	tool := New(dir, Options{NewIgnorer: func(d string) (Ignorer, error) { return prompt.NewIgnore(d) }})
	res := runIn(t, tool, "gofmt -w . && touch new.txt && rm old.txt")
	if meta(res, "exit_code") != "0" {
		t.Fatalf("%s\n%s", res.Message, res.Content)
	}
	want := []string{"bad.go", "new.txt", "old.txt", "sub/worse.go"}
	if !slices.Equal(res.Changed, want) {
		t.Errorf("Changed = %q, want %q", res.Changed, want)
	}
	for _, line := range []string{"modified: bad.go", "modified: sub/worse.go", "created: new.txt", "deleted: old.txt", "agent undo cannot revert"} {
		if !strings.Contains(res.Content, line) {
			t.Errorf("content lacks %q:\n%s", line, res.Content)
		}
	}
	if strings.Contains(res.Content, "build/") || strings.Contains(res.Content, "good.go") {
		t.Errorf("an ignored or untouched file is listed:\n%s", res.Content)
	}
	if !strings.Contains(res.Message, "4 project files changed") || meta(res, "changed_files") != "4" {
		t.Errorf("message %q, changed_files %q", res.Message, meta(res, "changed_files"))
	}
	// Nothing changed: no list.
	res = runIn(t, tool, "gofmt -l .")
	if len(res.Changed) != 0 || meta(res, "changed_files") != "0" {
		t.Errorf("a read-only command changed %q", res.Changed)
	}
}

func TestChangedFilesBounded(t *testing.T) {
	needBwrap(t)
	files := map[string]string{}
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		files[n+".txt"] = n
	}
	dir := project(t, files)
	tool := New(dir, Options{ScanFiles: 3})
	res := runIn(t, tool, "touch f.txt")
	if res.Changed != nil || !strings.Contains(res.Content, "not listed: the project has more than 3 files") {
		t.Errorf("an over-large project: Changed %q, content %q", res.Changed, res.Content)
	}
}

func TestNewRepositoryIsFlagged(t *testing.T) {
	needBwrap(t)
	dir := t.TempDir()
	res := runIn(t, New(dir, Options{}), "mkdir .git && echo '[core]' > .git/config")
	if !strings.Contains(res.Content, "created .git") {
		t.Errorf("a .git made by the command is not flagged:\n%s", res.Content)
	}
	res = runIn(t, New(dir, Options{}), "true")
	if strings.Contains(res.Content, "created .git") {
		t.Errorf("an existing .git is flagged:\n%s", res.Content)
	}
}

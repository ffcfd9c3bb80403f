package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goMod = "module example.com/greet\n\ngo 1.22\n"

// TestCheckGoUndefinedName: a file that uses an undefined name gets
// gopls's error with its line; once fixed, none.
func TestCheckGoUndefinedName(t *testing.T) {
	gopls := needGopls(t)
	root := writeFiles(t, map[string]string{
		"go.mod":  goMod,
		"main.go": "package main\n\nfunc main() {\n\tgreet()\n}\n",
	})
	m := testManager(t, root, goSpec(gopls))
	d := m.Check(t.Context(), []string{"main.go"}, nil, nil)
	if d == nil || d.Errors != 1 || len(d.Items) != 1 {
		t.Fatalf("Check = %+v, want one error", d)
	}
	it := d.Items[0]
	if it.Path != "main.go" || it.Line != 4 || !strings.Contains(it.Message, "undefined: greet") {
		t.Errorf("the error is %+v, want main.go line 4, undefined: greet", it)
	}
	if text := Text(d); !strings.Contains(text, "main.go:4:2: error: undefined: greet") {
		t.Errorf("Text = %q, want the error with its line", text)
	}

	if err := os.WriteFile(filepath.Join(root, "greet.go"), []byte("package main\n\nfunc greet() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d = m.Check(t.Context(), []string{"greet.go"}, []string{"greet.go"}, nil)
	if d == nil || d.Errors != 0 || d.Elsewhere != 0 {
		t.Fatalf("after the fix Check = %+v, want no errors here or elsewhere", d)
	}
	if text := Text(d); !strings.Contains(text, "diagnostics: no errors in greet.go") {
		t.Errorf("Text = %q", text)
	}
}

// TestCheckPythonWrongArgumentType: pyright's error for an argument of
// the wrong type, with its line; once fixed, none.
func TestCheckPythonWrongArgumentType(t *testing.T) {
	pyright := needPyright(t)
	root := writeFiles(t, map[string]string{
		"pyproject.toml": "[project]\nname = \"greet\"\nversion = \"0.1\"\n",
		"greet.py":       "def greet(name: str) -> str:\n    return \"hello \" + name\n\n\nprint(greet(42))\n",
	})
	spec := Known[1]
	spec.Command = pyright
	m := testManager(t, root, spec)
	d := m.Check(t.Context(), []string{"greet.py"}, nil, nil)
	if d == nil || d.Errors != 1 || len(d.Items) != 1 {
		t.Fatalf("Check = %+v, want one error", d)
	}
	if it := d.Items[0]; it.Line != 5 || !strings.Contains(it.Message, `Argument of type "Literal[42]" cannot be assigned to parameter "name" of type "str"`) {
		t.Errorf("the error is %+v, want line 5, 42 is no str", it)
	}
	if err := os.WriteFile(filepath.Join(root, "greet.py"), []byte("def greet(name: str) -> str:\n    return \"hello \" + name\n\n\nprint(greet(\"42\"))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d = m.Check(t.Context(), []string{"greet.py"}, nil, nil); d == nil || d.Errors != 0 {
		t.Fatalf("after the fix Check = %+v, want no errors", d)
	}
}

// TestServerRestartedTwiceAtMost: a server that dies is started again
// for the next check, twice; the third death leaves it stopped, said
// once. Close ends the last one's process.
func TestServerRestartedTwiceAtMost(t *testing.T) {
	root := writeFiles(t, map[string]string{"go.mod": goMod, "main.go": "package main\n\nfunc main() {}\n"})
	m := testManager(t, root, goSpec(needGopls(t)))
	kill := func() {
		t.Helper()
		srv := m.insts["gopls\x00"+m.root].srv
		srv.cmd.Process.Kill()
		<-srv.exited
	}
	for i := range MaxRestarts + 1 {
		if d := m.Check(t.Context(), []string{"main.go"}, nil, nil); d == nil || d.Errors != 0 || d.Note != "" && i == 0 {
			t.Fatalf("check %d: %+v", i, d)
		}
		if st := m.Status()[0]; st.State != "running" || st.Restarts != i {
			t.Fatalf("check %d: status %+v, want running, restarted %d times", i, st, i)
		}
		kill()
	}
	d := m.Check(t.Context(), []string{"main.go"}, nil, nil)
	if d == nil || !strings.Contains(d.Note, "gopls is not running") || !strings.Contains(d.Note, "not started again") {
		t.Fatalf("after the third death: %+v", d)
	}
	if d := m.Check(t.Context(), []string{"main.go"}, nil, nil); d != nil && d.Note != "" {
		t.Errorf("said twice: %+v", d)
	}
	if st := m.Status()[0]; !strings.HasPrefix(st.State, "stopped: ") {
		t.Errorf("status %+v", st)
	}
}

// TestCloseEndsTheServers: Close ends a running server's process.
func TestCloseEndsTheServers(t *testing.T) {
	root := writeFiles(t, map[string]string{"go.mod": goMod, "main.go": "package main\n\nfunc main() {}\n"})
	m := testManager(t, root, goSpec(needGopls(t)))
	m.Check(t.Context(), []string{"main.go"}, nil, nil)
	srv := m.insts["gopls\x00"+m.root].srv
	m.Close()
	if !isClosed(srv.exited) {
		t.Fatal("gopls still runs after Close")
	}
	if st := m.Status()[0]; st.State != "ended with the conversation" {
		t.Errorf("status %+v", st)
	}
}

// TestNoServerSaysSoOnce: a Go file without gopls gets one note, once;
// a file no known server serves gets nothing.
func TestNoServerSaysSoOnce(t *testing.T) {
	root := writeFiles(t, map[string]string{"main.go": "package main\n", "README.md": "# hi\n"})
	m := New(Options{Root: root, Missing: map[string]string{"gopls": "gopls not found on the trusted PATH"}})
	d := m.Check(t.Context(), []string{"main.go", "README.md"}, nil, nil)
	if d == nil || d.Note != "no language server for go files (gopls not found on the trusted PATH)" || len(d.Files) != 0 {
		t.Fatalf("first check: %+v", d)
	}
	if text := Text(d); text != "diagnostics:\nnote: no language server for go files (gopls not found on the trusted PATH)\n" {
		t.Errorf("Text = %q", text)
	}
	if d := m.Check(t.Context(), []string{"main.go"}, nil, nil); d != nil {
		t.Errorf("second check: %+v, want nothing", d)
	}
}

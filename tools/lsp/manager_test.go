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

package lsp

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
)

func navProject(t *testing.T) string {
	return writeFiles(t, map[string]string{
		"go.mod":         goMod,
		"main.go":        "package main\n\nimport \"example.com/greet/words\"\n\nfunc main() {\n\tprintln(words.Hello(\"you\"))\n}\n",
		"words/hello.go": "package words\n\n// Hello greets name.\nfunc Hello(name string) string {\n\treturn \"hello \" + name\n}\n\n// Greeter says hello.\ntype Greeter struct{ Name string }\n",
		"words/other.go": "package words\n\nvar x = Hello(\"me\")\n",
	})
}

// TestToolDefinitionInAnotherFile: definition of a function used in
// main.go answers the file and line it is defined at, by symbol and by
// line and column.
func TestToolDefinitionInAnotherFile(t *testing.T) {
	root := navProject(t)
	reg := tools.NewRegistry(Tool(testManager(t, root, goSpec(needGopls(t)))))
	for _, args := range []map[string]string{
		{"operation": "definition", "path": "main.go", "symbol": "Hello"},
		{"operation": "definition", "path": "main.go", "line": "6", "column": "17"},
	} {
		res, err := reg.Call(t.Context(), Name, args)
		if err != nil || res.IsError() {
			t.Fatalf("%v: %+v, %v", args, res, err)
		}
		if !strings.Contains(res.Content, "words/hello.go:4:6: func Hello(name string) string") {
			t.Errorf("%v answered %q, want words/hello.go line 4 with its text", args, res.Content)
		}
	}
}

// TestToolReferencesHoverSymbols: the other operations answer from gopls.
func TestToolReferencesHoverSymbols(t *testing.T) {
	root := navProject(t)
	reg := tools.NewRegistry(Tool(testManager(t, root, goSpec(needGopls(t)))))
	for _, c := range []struct {
		args map[string]string
		want []string
	}{
		{map[string]string{"operation": "references", "path": "words/hello.go", "symbol": "Hello", "line": "4"},
			[]string{"main.go:6:16:", "words/other.go:3:9:", "words/hello.go:4:6:"}},
		{map[string]string{"operation": "hover", "path": "main.go", "symbol": "Hello"},
			[]string{"func words.Hello(name string) string", "Hello greets name."}},
		{map[string]string{"operation": "symbols", "path": "words/hello.go"},
			[]string{"4: function Hello", "9: struct Greeter", "  9: field Name string"}},
		{map[string]string{"operation": "workspace_symbols", "query": "Greeter"},
			[]string{"struct Greeter", "words/hello.go:9:6: type Greeter struct{ Name string }"}},
	} {
		res, err := reg.Call(t.Context(), Name, c.args)
		if err != nil || res.IsError() {
			t.Fatalf("%v: %+v, %v", c.args, res, err)
		}
		for _, w := range c.want {
			if !strings.Contains(res.Content, w) {
				t.Errorf("%v answered %q, want %q in it", c.args, res.Content, w)
			}
		}
	}
}

// TestToolMistakes: what the model gets wrong is told in one line.
func TestToolMistakes(t *testing.T) {
	root := navProject(t)
	reg := tools.NewRegistry(Tool(testManager(t, root, goSpec(needGopls(t)))))
	for _, c := range []struct {
		args       map[string]string
		code, want string
	}{
		{map[string]string{"operation": "definition", "path": "main.go"}, tools.CodeSchemaInvalid, "needs line (and column) or symbol"},
		{map[string]string{"operation": "definition", "path": "main.go", "symbol": "Nope"}, tools.CodeSchemaInvalid, "Nope does not occur in main.go"},
		{map[string]string{"operation": "definition", "path": "main.go", "line": "99"}, tools.CodeSchemaInvalid, "line 99 is outside main.go"},
		{map[string]string{"operation": "hover", "path": "go.sum", "line": "1"}, tools.CodeUnsupportedType, "no language server for sum files"},
		{map[string]string{"operation": "hover", "path": "gone.go", "line": "1"}, tools.CodeFileNotFound, "gone.go"},
		{map[string]string{"operation": "workspace_symbols"}, tools.CodeSchemaInvalid, "needs query"},
	} {
		res, err := reg.Call(t.Context(), Name, c.args)
		if err != nil || res.Code != c.code || !strings.Contains(res.Message, c.want) {
			t.Errorf("%v = %s %q, %v; want %s with %q", c.args, res.Code, res.Message, err, c.code, c.want)
		}
	}
}

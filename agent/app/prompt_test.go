package app

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
	"github.com/agentcli/agent/tools/sandbox"
)

// testCatalog returns the built-in tools of a fresh project with the
// default settings, closed when the test ends.
func testCatalog(t *testing.T) *tools.Registry {
	t.Helper()
	set, err := (&Builder{}).Catalog(t.Context(), t.TempDir(), config.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { set.Close() })
	return set.Registry()
}

// TestPromptExamplesParseAndValidate checks that every protocol example
// is shown (the built-in tools are registered), parses back to exactly the
// call it was made from, and passes the registry's validation.
func TestPromptExamplesParseAndValidate(t *testing.T) {
	reg := testCatalog(t)
	ex := protocolExamples(reg)
	for name, s := range map[string]string{"read": ex.Read, "create": ex.Create, "partial": ex.Partial, "error": ex.Error} {
		if s == "" {
			t.Errorf("example %s is missing with the built-in tools", name)
		}
	}
	if !strings.Contains(ex.Create, "<![CDATA[") {
		t.Errorf("the create example does not use CDATA:\n%s", ex.Create)
	}
	for _, c := range []xmlcall.Call{exampleRead, exampleCreate, examplePartial} {
		calls, errs := xmlcall.Parse(xmlcall.RenderCall(c), reg.ParamNames)
		if len(errs) > 0 || len(calls) != 1 {
			t.Fatalf("example %s %s: parsed %d calls, errors %v", c.Name, c.ID, len(calls), errs)
		}
		got := calls[0]
		if got.Name != c.Name || got.ID != c.ID || len(got.Params) != len(c.Params) {
			t.Fatalf("example parsed as %+v, want %+v", got, c)
		}
		for i, p := range c.Params {
			if got.Params[i] != p {
				t.Errorf("example %s %s: param %d = %+v, want %+v", c.Name, c.ID, i, got.Params[i], p)
			}
		}
		if _, _, res := reg.Validate(got.Name, got.Args()); res != nil {
			t.Errorf("example %s %s does not validate: %s %s", c.Name, c.ID, res.Code, res.Message)
		}
	}
}

// TestPromptErrorExampleIsWhatTheToolSays runs the real read_file on the
// example's missing path: the example must show its real answer.
func TestPromptErrorExampleIsWhatTheToolSays(t *testing.T) {
	reg := testCatalog(t)
	res, err := reg.Call(t.Context(), exampleError.Name, xmlcall.Call{Params: exampleError.Params}.Args())
	if err != nil {
		t.Fatal(err)
	}
	if res.Code != exampleError.Code || res.Message != exampleError.Message {
		t.Errorf("read_file answers %s %q, the example shows %s %q", res.Code, res.Message, exampleError.Code, exampleError.Message)
	}
}

func TestPromptWithoutTools(t *testing.T) {
	ex := protocolExamples(tools.NewRegistry())
	if ex != (prompt.Examples{}) {
		t.Errorf("examples with no tools = %+v, want none", ex)
	}
}

// TestPromptFixedPartSize keeps role + protocol + the file tools'
// catalog under the target, and checks each tool and parameter is in it.
func TestPromptFixedPartSize(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "README.md"), "# Demo\n")
	root := sandbox.NewRoot(dir, sandbox.Options{})
	defer root.Close()
	reg := tools.NewRegistry(fsedit.NewTools(root)...)
	p, err := (&Builder{}).SystemPrompt(t.Context(), root, reg, config.Defaults().Tree)
	if err != nil {
		t.Fatal(err)
	}
	fixed := 0
	for _, s := range p.Sections {
		t.Logf("%-12s %5d bytes", s.Name, len(s.Text))
		switch s.Name {
		case prompt.SectionRole, prompt.SectionProtocol, prompt.SectionTools:
			fixed += len(s.Text)
		}
	}
	if fixed >= FixedPromptTarget {
		t.Errorf("role + protocol + tools = %d bytes, want under %d", fixed, FixedPromptTarget)
	}
	catalog := p.Section(prompt.SectionTools)
	for _, tool := range reg.Tools() {
		def := tool.Definition()
		if !strings.Contains(catalog, "## "+def.Name+"\n") {
			t.Errorf("catalog lacks tool %s", def.Name)
		}
		for _, param := range def.Params {
			if !strings.Contains(catalog, "- "+param.Name) {
				t.Errorf("catalog lacks %s's parameter %s", def.Name, param.Name)
			}
		}
	}
}

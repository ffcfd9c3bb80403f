package chat

import (
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
)

func TestCardNamesTheRuleThatAllowedIt(t *testing.T) {
	st := newStyles(true)
	c := newCard(&xmlcall.Call{ID: "1", Name: "write_file", Params: []xmlcall.Param{{Name: "file_path", Value: "docs/a.md"}}}, time.Now())
	c.result = &agent.CallResult{ID: "1", Tool: "write_file", Result: tools.Result{Message: "created docs/a.md"}, Rule: `permissions.allow "docs/**"`}
	line := c.view(&st, "", time.Now(), 0)
	if !strings.Contains(line, `allowed by permissions.allow "docs/**"`) || !strings.Contains(line, "✓") {
		t.Errorf("card = %q, want the rule named", line)
	}
	c.result.Rule = ""
	if line := c.view(&st, "", time.Now(), 0); strings.Contains(line, "allowed by") {
		t.Errorf("card without a rule = %q", line)
	}
}

// TestCardShowsDiagnostics: a write the language servers looked at says
// how many errors they found; a write nobody looked at says nothing.
func TestCardShowsDiagnostics(t *testing.T) {
	st := newStyles(true)
	c := newCard(&xmlcall.Call{ID: "1", Name: "write_file", Params: []xmlcall.Param{{Name: "file_path", Value: "main.go"}}}, time.Now())
	d := &tools.Diagnostics{Files: []string{"main.go"}, Errors: 2, Elsewhere: 1}
	c.result = &agent.CallResult{ID: "1", Tool: "write_file", Result: tools.Result{Message: "replaced 1 line in main.go", Diagnostics: d}}
	if line := c.view(&st, "", time.Now(), 0); !strings.Contains(line, "· 2 errors (1 elsewhere)") {
		t.Errorf("card = %q, want 2 errors", line)
	}
	d.Errors, d.Elsewhere = 0, 0
	if line := c.view(&st, "", time.Now(), 0); !strings.Contains(line, "· no errors") {
		t.Errorf("card = %q, want no errors", line)
	}
	c.result.Result.Diagnostics = nil
	if line := c.view(&st, "", time.Now(), 0); strings.Contains(line, "error") {
		t.Errorf("card without diagnostics = %q", line)
	}
}

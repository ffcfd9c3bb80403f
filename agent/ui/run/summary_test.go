package run

import (
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/tools"
)

// TestSummaryCarriesDiagnosticsLeft: the summary holds the errors each
// changed file's last check left, none once a later write fixed them.
func TestSummaryCarriesDiagnosticsLeft(t *testing.T) {
	broken := tools.Diagnostic{Path: "greet.go", Line: 4, Column: 10, Severity: "error", Message: "undefined: helo", Source: "compiler"}
	other := tools.Diagnostic{Path: "main.go", Line: 2, Column: 1, Severity: "error", Message: "missing return"}
	call := func(items []tools.Diagnostic, files ...string) agent.CallResult {
		return agent.CallResult{Tool: "write_file", Result: tools.Result{Changed: files,
			Diagnostics: &tools.Diagnostics{Files: files, Errors: len(items), Items: items}}}
	}
	out := &agent.Outcome{Calls: []agent.CallResult{call([]tools.Diagnostic{broken, other}, "greet.go", "main.go")}}
	s := Summarize(out, nil, time.Now())
	if len(s.Diagnostics) != 2 {
		t.Fatalf("Diagnostics = %+v, want both errors", s.Diagnostics)
	}
	var b strings.Builder
	s.print(&b)
	if !strings.Contains(b.String(), "agent: the language servers report 2 left:\n  greet.go:4:10: error: undefined: helo\n") {
		t.Errorf("printed %q", b.String())
	}
	out.Calls = append(out.Calls, call(nil, "greet.go"))
	if s := Summarize(out, nil, time.Now()); len(s.Diagnostics) != 1 || s.Diagnostics[0] != other {
		t.Errorf("after greet.go's fix: %+v, want main.go's error alone", s.Diagnostics)
	}
}

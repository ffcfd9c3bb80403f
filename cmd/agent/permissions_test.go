package main

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// TestRunSaysWhichRuleAllowedAWrite: a write an allow rule lets run
// unasked is named on stderr with the path the rule judged, as the
// tool's definition names it.
func TestRunSaysWhichRuleAllowedAWrite(t *testing.T) {
	model := llmtest.Texts(`<tool_call name="write_file" id="1"><operation_type>create</operation_type><file_path>docs/a.md</file_path><content>hi</content></tool_call>`, "done")
	errOut, code := runWithUserConfig(t, model, "[permissions]\nallow = [\"write_file:docs/**\"]\n", "write it")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := `write_file docs/a.md: allowed by permissions.allow "write_file:docs/**"`; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q:\n%s", want, errOut)
	}
}

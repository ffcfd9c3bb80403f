package agent

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
)

// TestUnshownToolAnsweredWithItsDefinition: a call of a tool the prompt
// only names that does not validate (here, without its operation_type)
// is answered with its validation error and the tool's whole definition;
// the model's next, valid call of it runs.
func TestUnshownToolAnsweredWithItsDefinition(t *testing.T) {
	e := newEnv(t, texts(
		`<tool_call name="write_file" id="1"><file_path>a.txt</file_path><content>hi</content></tool_call>`,
		`<tool_call name="write_file" id="2"><operation_type>create</operation_type><file_path>a.txt</file_path><content>hi</content></tool_call>`,
		"Created a.txt.",
	)...)
	e.agent.Unshown = map[string]string{"write_file": "## write_file\nWrite a file.\n- operation_type (required, create|overwrite|append)\n"}
	if _, err := e.run("create a.txt"); err != nil {
		t.Fatal(err)
	}
	res := e.results()
	if len(res) != 2 {
		t.Fatalf("%d results, want 2", len(res))
	}
	first := res[0].Result
	if first.Code != tools.CodeSchemaInvalid || !strings.Contains(first.Message, "here is its definition") || !strings.Contains(first.Content, "## write_file") {
		t.Errorf("first call: %+v, want TOOL_SCHEMA_INVALID carrying the definition", first)
	}
	if res[1].Result.IsError() || e.file("a.txt") != "hi" || e.tools.runs["write_file"] != 1 {
		t.Errorf("second call: %+v, file %q, runs %d; want it run once", res[1].Result, e.file("a.txt"), e.tools.runs["write_file"])
	}
	// The definition reaches the model inside the response.
	if last := e.model.Requests()[1].Messages[2].Text; !strings.Contains(last, "Write a file.") || !strings.Contains(last, `code="TOOL_SCHEMA_INVALID"`) {
		t.Errorf("second request's tool response = %q", last)
	}
}

// TestUnshownToolValidCallRuns: a valid first call of a tool the prompt
// only names runs at once, without a round trip for its definition.
func TestUnshownToolValidCallRuns(t *testing.T) {
	e := newEnv(t, texts(
		`<tool_call name="write_file" id="1"><operation_type>create</operation_type><file_path>a.txt</file_path><content>hi</content></tool_call>`,
		"Created a.txt.",
	)...)
	e.agent.Unshown = map[string]string{"write_file": "## write_file\nWrite a file.\n"}
	if _, err := e.run("create a.txt"); err != nil {
		t.Fatal(err)
	}
	res := e.results()
	if len(res) != 1 || res[0].Result.IsError() || e.file("a.txt") != "hi" || e.tools.runs["write_file"] != 1 {
		t.Fatalf("results %+v, file %q; want the call run once", res, e.file("a.txt"))
	}
}

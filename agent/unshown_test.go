package agent

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
)

// TestUnshownToolAnsweredWithItsDefinition: with the small-window prompt,
// the first call of a tool the prompt only names is not run; its result
// carries the tool's definition. The model's next call of it runs.
func TestUnshownToolAnsweredWithItsDefinition(t *testing.T) {
	write := "<tool_call name=\"write_file\" id=\"%s\"><operation_type>create</operation_type><file_path>a.txt</file_path><content>hi</content></tool_call>"
	e := newEnv(t, texts(
		strings.Replace(write, "%s", "1", 1),
		strings.Replace(write, "%s", "2", 1),
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
	if first.Code != tools.CodeToolUnknown || !strings.Contains(first.Message, "was not run") || !strings.Contains(first.Content, "## write_file") {
		t.Errorf("first call: %+v, want TOOL_UNKNOWN carrying the definition", first)
	}
	if res[1].Result.IsError() || e.file("a.txt") != "hi" || e.tools.runs["write_file"] != 1 {
		t.Errorf("second call: %+v, file %q, runs %d; want it run once", res[1].Result, e.file("a.txt"), e.tools.runs["write_file"])
	}
	// The definition reaches the model inside the response.
	if last := e.model.Requests()[1].Messages[2].Text; !strings.Contains(last, "Write a file.") || !strings.Contains(last, `code="TOOL_UNKNOWN"`) {
		t.Errorf("second request's tool response = %q", last)
	}
}

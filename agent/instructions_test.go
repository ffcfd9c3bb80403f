package agent

import (
	"strings"
	"testing"
)

func TestNestedInstructionsFollowTheResponses(t *testing.T) {
	e := newEnv(t, texts(
		`<tool_call name="read_file"><file_path>web/a.js</file_path></tool_call>`,
		`<tool_call name="read_file"><file_path>web/b.js</file_path></tool_call>`,
		"done",
	)...)
	e.writeFile("a.js", "x")
	given := map[string]bool{}
	e.agent.Instructions = func(p string) (string, string) {
		if !strings.HasPrefix(p, "web/") || given["web"] {
			return "", ""
		}
		given["web"] = true
		return "web/AGENTS.md", "use tabs in web"
	}
	if _, err := e.run("read them"); err != nil {
		t.Fatal(err)
	}
	reqs := e.model.Requests()
	if got := reqs[1].Messages[2].Text; !strings.Contains(got, "[Instructions from web/AGENTS.md, for the files in web/: follow them there.]\n\nuse tabs in web") {
		t.Errorf("the turn after the first call in web/ lacks its instructions: %q", got)
	}
	if got := reqs[2].Messages[4].Text; strings.Contains(got, "use tabs") {
		t.Errorf("the instructions were given twice: %q", got)
	}
}

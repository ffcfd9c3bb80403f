package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/tools"
)

type haltArgs struct {
	Command string `json:"command"`
}

// TestRunHaltEndsTheTurn: a result that says the turn must stop ends the
// run with a HaltError after that call: the reply's later calls are
// answered as not run, no further request is sent, and the answer that
// stopped it is kept in the session for the model's next turn.
func TestRunHaltEndsTheTurn(t *testing.T) {
	e := newEnv(t, texts(
		`<tool_call name="check" id="1"><command>make</command></tool_call>`+
			`<tool_call name="write_file" id="2"><operation_type>create</operation_type><file_path>a.txt</file_path><content>x</content></tool_call>`,
		"Never sent.")...)
	check := tools.New("check", "Check.", func(context.Context, haltArgs) (tools.Result, error) {
		return tools.Result{Message: "checked", Content: "Folders x and y were not checked.", Alerts: []string{"x and y were not checked"}, Halt: "x and y were not checked"}, nil
	})
	write, _ := e.tools.registry().Lookup("write_file")
	e.agent.Tools = tools.NewRegistry(check, write)
	_, err := e.run("go")
	var halt *HaltError
	if !errors.As(err, &halt) || halt.Tool != "check" || err.Error() != "check stopped the turn: x and y were not checked" {
		t.Fatalf("err = %v, want the HaltError of check", err)
	}
	if n := len(e.model.Requests()); n != 1 {
		t.Errorf("%d requests, want 1: the model is asked nothing after the halt", n)
	}
	if e.exists("a.txt") {
		t.Errorf("the call after the halt ran")
	}
	if got := strings.Join(e.codes(), ","); got != ","+tools.CodeSkipped {
		t.Errorf("codes %q, want the check's success and the write skipped", got)
	}
	if last := e.events[len(e.events)-1]; last.Type != EventError || !errors.As(last.Err, &halt) {
		t.Errorf("last event %+v, want the error", last)
	}
	msgs := e.agent.Session.Messages()
	if last := msgs[len(msgs)-1]; last.Role != llm.User || !strings.Contains(last.Text, "Folders x and y were not checked.") {
		t.Errorf("the session does not end with the answers: %+v", last)
	}
}

package todo_test

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/todo"
)

func call(t *testing.T, todos string) tools.Result {
	t.Helper()
	reg := tools.NewRegistry(todo.New())
	tool, in, bad := reg.Validate(todo.Name, map[string]string{"todos": todos})
	if bad != nil {
		return *bad
	}
	res, err := reg.Execute(t.Context(), tool, in)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The answer is the list as it now stands, and carries it for the loop.
func TestTodoWriteAnswersTheList(t *testing.T) {
	res := call(t, "\n- [x] read\n-  [>] write\n- [ ] test\n")
	if res.IsError() || res.Message != "plan: 1 of 3 done; in progress: write" || res.Content != "- [x] read\n- [>] write\n- [ ] test\n" {
		t.Errorf("result = %+v", res)
	}
	if len(res.Todos) != 3 || res.Todos[1] != (tools.Todo{Text: "write", Status: tools.TodoInProgress}) {
		t.Errorf("todos = %+v", res.Todos)
	}
	def := todo.New().Definition()
	if !def.OnDemand || !def.NotServed || def.Writes {
		t.Errorf("definition = %+v: want on demand, not served, writing nothing", def)
	}
}

func TestTodoWriteRefusesABrokenList(t *testing.T) {
	res := call(t, "- [>] one\n- [>] two\n")
	if res.Code != tools.CodeSchemaInvalid || !strings.HasPrefix(res.Message, "todo_write: 2 steps are in progress") || res.Todos != nil {
		t.Errorf("result = %+v", res)
	}
	if res := call(t, "1. one\n"); res.Code != tools.CodeSchemaInvalid || !strings.Contains(res.Message, "- [ ] pending, - [>] in progress (at most one)") {
		t.Errorf("result = %+v", res)
	}
}

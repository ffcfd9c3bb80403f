// Package todo is todo_write: the plan of a task the model keeps as a
// Markdown checklist, shown to the person as it goes. The tool only
// reads and answers the list; the loop keeps it in the session (see
// tools.Result.Todos) and the faces show it.
package todo

import (
	"context"
	_ "embed"

	"github.com/agentcli/agent/tools"
)

//go:embed todo_write.md
var description string

// Name is the tool's name.
const Name = "todo_write"

// Args are todo_write's parameters.
type Args struct {
	Todos string `json:"todos" verbatim:"true" jsonschema:"the whole plan, one step a line: - [ ] pending, - [>] in progress, - [x] done, - [-] cancelled"`
}

// New returns todo_write. It is named on demand (most tasks need no
// plan) and not served: the plan is shown to the person of this
// conversation, and agent serve has none.
func New() tools.Tool {
	return tools.New(Name, description, write, tools.Acts(tools.ActionThink), tools.OnDemand(), tools.NotServed())
}

func write(_ context.Context, a Args) (tools.Result, error) {
	items, err := tools.ParseTodos(a.Todos)
	if err != nil {
		return tools.Errorf(tools.CodeSchemaInvalid, "%s: %v", Name, err), nil
	}
	_, _, current := tools.TodoCounts(items)
	msg := "plan: " + tools.TodoProgress(items)
	if current != "" {
		msg += "; in progress: " + current
	}
	return tools.Result{Message: msg, Content: tools.FormatTodos(items), Todos: items}, nil
}

// Mark is the sign a person sees before a step of the given status.
func Mark(s tools.TodoStatus) string {
	switch s {
	case tools.TodoInProgress:
		return "▶"
	case tools.TodoCompleted:
		return "✓"
	case tools.TodoCancelled:
		return "–"
	}
	return "○"
}

package agent

import (
	"slices"

	"github.com/agentcli/agent/tools"
)

// Todos returns the model's plan as it last wrote it with todo_write
// (nil when it wrote none): kept through a resume and a compaction, and
// taken back by a rewind to before the turn that wrote it.
func (s *Session) Todos() []tools.Todo { return slices.Clone(s.todos) }

// SetTodos records the model's plan, writing it to the log at once, and
// reports whether it differs from the one before.
func (s *Session) SetTodos(items []tools.Todo) (changed bool, err error) {
	if slices.Equal(items, s.todos) {
		return false, nil
	}
	if !s.memory {
		if err := s.open(); err != nil {
			return false, err
		}
		if err := s.write(record{Type: "todo", Time: s.now().UTC(), Todos: items}); err != nil {
			return false, err
		}
	}
	s.todos = slices.Clone(items)
	return true, nil
}

// keepTodos records the plan a call's result carries, if any, and
// reports it to the faces when it changed.
func (a *Agent) keepTodos(cr CallResult, iter int, emit func(Event)) error {
	if cr.Result.IsError() || cr.Result.Todos == nil {
		return nil
	}
	changed, err := a.Session.SetTodos(cr.Result.Todos)
	if err != nil || !changed {
		return err
	}
	emit(Event{Type: EventTodo, Iteration: iter, Todos: a.Session.Todos()})
	return nil
}

// todoNote is the plan as the compaction's summary carries it on, so
// the model still has it when the calls that wrote it are summarised
// away; "" when there is none.
func (s *Session) todoNote() string {
	if len(s.todos) == 0 {
		return ""
	}
	return "\n\n[Your plan, as you last wrote it with todo_write (" + tools.TodoProgress(s.todos) + "):\n" + tools.FormatTodos(s.todos) + "]"
}

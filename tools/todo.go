package tools

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// TodoStatus is the state of one step of the model's plan.
type TodoStatus string

// The states of a step, and the mark of each in the plan's Markdown
// checklist (todo_write's todos).
const (
	TodoPending    TodoStatus = "pending"     // - [ ]
	TodoInProgress TodoStatus = "in_progress" // - [>]
	TodoCompleted  TodoStatus = "completed"   // - [x]
	TodoCancelled  TodoStatus = "cancelled"   // - [-]
)

// Todo is one step of the plan the model keeps with todo_write.
type Todo struct {
	Text   string     `json:"text"`
	Status TodoStatus `json:"status"`
}

// The bounds of a plan: a step is one short line, and a plan that needs
// more steps than this is several tasks.
const (
	MaxTodos    = 50
	MaxTodoText = 200 // characters
)

var todoMarks = map[string]TodoStatus{" ": TodoPending, ">": TodoInProgress, "x": TodoCompleted, "X": TodoCompleted, "-": TodoCancelled}

// todoForm says how to write the list, for the errors that answer a
// list written otherwise.
const todoForm = "write one step a line as a Markdown checklist: - [ ] pending, - [>] in progress (at most one), - [x] done, - [-] cancelled"

// ParseTodos reads a plan written as a Markdown checklist, one step a
// line (blank lines are skipped). The error says, in words the model
// can act on, which line is wrong and how to write it.
func ParseTodos(text string) ([]Todo, error) {
	var items []Todo
	inProgress := 0
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		t, ok := parseTodo(line)
		if !ok {
			return nil, fmt.Errorf("line %d (%q) is not a checklist item; %s", n+1, shorten(line, 60), todoForm)
		}
		if utf8.RuneCountInString(t.Text) > MaxTodoText {
			return nil, fmt.Errorf("line %d is %d characters long; keep a step to one short line (at most %d)", n+1, utf8.RuneCountInString(t.Text), MaxTodoText)
		}
		if t.Status == TodoInProgress {
			inProgress++
		}
		items = append(items, t)
	}
	switch {
	case len(items) == 0:
		return nil, fmt.Errorf("the list is empty; send the whole plan each time, %s", todoForm)
	case len(items) > MaxTodos:
		return nil, fmt.Errorf("the list has %d steps, more than %d; group them into larger steps", len(items), MaxTodos)
	case inProgress > 1:
		return nil, fmt.Errorf("%d steps are in progress; at most one may be (- [>]): mark the others pending or done", inProgress)
	}
	return items, nil
}

// parseTodo reads one line: "- [m] text" (or "* [m] text").
func parseTodo(line string) (Todo, bool) {
	rest, ok := strings.CutPrefix(line, "- ")
	if !ok {
		rest, ok = strings.CutPrefix(line, "* ")
	}
	rest = strings.TrimLeft(rest, " ")
	if !ok || len(rest) < 3 || rest[0] != '[' || rest[2] != ']' {
		return Todo{}, false
	}
	status, ok := todoMarks[rest[1:2]]
	text := strings.TrimSpace(rest[3:])
	if !ok || text == "" {
		return Todo{}, false
	}
	return Todo{Text: text, Status: status}, true
}

// FormatTodos writes a plan as the Markdown checklist ParseTodos reads,
// one line each.
func FormatTodos(items []Todo) string {
	var b strings.Builder
	for _, t := range items {
		mark := " "
		switch t.Status {
		case TodoInProgress:
			mark = ">"
		case TodoCompleted:
			mark = "x"
		case TodoCancelled:
			mark = "-"
		}
		fmt.Fprintf(&b, "- [%s] %s\n", mark, t.Text)
	}
	return b.String()
}

// TodoCounts counts a plan's steps done and cancelled, and returns the
// step in progress ("" when none).
func TodoCounts(items []Todo) (done, cancelled int, current string) {
	for _, t := range items {
		switch t.Status {
		case TodoCancelled:
			cancelled++
		case TodoCompleted:
			done++
		case TodoInProgress:
			current = t.Text
		}
	}
	return done, cancelled, current
}

// TodoProgress says in a few words how far a plan is: "2 of 5 done",
// the cancelled steps left out.
func TodoProgress(items []Todo) string {
	done, cancelled, _ := TodoCounts(items)
	return fmt.Sprintf("%d of %d done", done, len(items)-cancelled)
}

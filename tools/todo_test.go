package tools

import (
	"strings"
	"testing"
)

func TestParseTodos(t *testing.T) {
	items, err := ParseTodos("\n- [x] read the code\n\n  - [>] write the tests  \n* [ ] run them\n- [X] lint\n- [-] rewrite it\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []Todo{{"read the code", TodoCompleted}, {"write the tests", TodoInProgress}, {"run them", TodoPending}, {"lint", TodoCompleted}, {"rewrite it", TodoCancelled}}
	if len(items) != len(want) {
		t.Fatalf("ParseTodos = %+v", items)
	}
	for i := range want {
		if items[i] != want[i] {
			t.Errorf("item %d = %+v, want %+v", i, items[i], want[i])
		}
	}
	if got := FormatTodos(items); got != "- [x] read the code\n- [>] write the tests\n- [ ] run them\n- [x] lint\n- [-] rewrite it\n" {
		t.Errorf("FormatTodos = %q", got)
	}
	if got := TodoProgress(items); got != "2 of 4 done" {
		t.Errorf("TodoProgress = %q", got)
	}
}

func TestParseTodosRefuses(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"empty", " \n\n", "the list is empty"},
		{"prose", "- [ ] one\nthen two\n", `line 2 ("then two") is not a checklist item; write one step a line`},
		{"unknown mark", "- [?] one", "is not a checklist item"},
		{"no text", "- [ ]   ", "is not a checklist item"},
		{"two in progress", "- [>] one\n- [>] two\n- [ ] three", "2 steps are in progress; at most one may be"},
		{"too long", "- [ ] " + strings.Repeat("a", MaxTodoText+1), "line 1 is 201 characters long"},
		{"too many", strings.Repeat("- [ ] step\n", MaxTodos+1), "the list has 51 steps, more than 50"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseTodos(c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ParseTodos(%q) = %v, want an error with %q", c.in, err, c.want)
			}
		})
	}
}

package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
)

type planArgs struct {
	Todos string `json:"todos" verbatim:"true"`
}

// withPlanTool adds a tool that answers with the plan it is given, as
// todo_write does (tools/todo): the loop's part is what is tested here.
func (e *env) withPlanTool() {
	e.agent.Tools.Add(tools.New("plan", "Keep a plan.", func(_ context.Context, a planArgs) (tools.Result, error) {
		items, err := tools.ParseTodos(a.Todos)
		if err != nil {
			return tools.Errorf(tools.CodeSchemaInvalid, "%v", err), nil
		}
		return tools.Result{Message: "plan kept", Todos: items}, nil
	}))
}

func planCall(todos string) string {
	return "<tool_call name=\"plan\"><todos>\n" + todos + "</todos></tool_call>"
}

func (e *env) todoEvents() [][]tools.Todo {
	var out [][]tools.Todo
	for _, ev := range e.events {
		if ev.Type == EventTodo {
			out = append(out, ev.Todos)
		}
	}
	return out
}

func statuses(items []tools.Todo) string {
	var s []string
	for _, t := range items {
		s = append(s, t.Text+"="+string(t.Status))
	}
	return strings.Join(s, " ")
}

// The plan a result carries is kept in the session and reported once
// each time it changes; the same plan again is no news, a broken one
// changes nothing. A resumed session has it.
func TestPlanKeptAndReportedWhenItChanges(t *testing.T) {
	first := "- [>] read\n- [ ] write\n"
	second := "- [x] read\n- [>] write\n"
	e := newEnv(t, texts(
		planCall(first),
		planCall(first),
		planCall("- [>] read\n- [>] write\n"),
		planCall(second),
		"Done.",
	)...)
	e.withPlanTool()
	if _, err := e.run("do it"); err != nil {
		t.Fatal(err)
	}
	got := e.todoEvents()
	if len(got) != 2 || statuses(got[0]) != "read=in_progress write=pending" || statuses(got[1]) != "read=completed write=in_progress" {
		t.Fatalf("todo events = %v, want the two plans", got)
	}
	if codes := e.codes(); fmt.Sprint(codes) != "[  "+tools.CodeSchemaInvalid+" ]" {
		t.Errorf("codes = %q", codes)
	}
	if s := statuses(e.agent.Session.Todos()); s != "read=completed write=in_progress" {
		t.Errorf("session's plan = %s", s)
	}
	e.agent.Session.Close()
	r, err := OpenSession(e.root, e.agent.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s := statuses(r.Todos()); s != "read=completed write=in_progress" {
		t.Errorf("resumed session's plan = %s", s)
	}
}

// A rewind takes the plan back to what it was before the turn, in this
// process and in a resumed one.
func TestRewindTakesThePlanBack(t *testing.T) {
	e := newEnv(t, texts(planCall("- [>] one\n"), "ok", planCall("- [x] one\n- [>] two\n"), "ok")...)
	e.withPlanTool()
	turn := func(text string) Turn {
		tn, err := e.agent.Session.BeginTurn(text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.run(text); err != nil {
			t.Fatal(err)
		}
		return tn
	}
	turn("first")
	second := turn("second")
	if s := statuses(e.agent.Session.Todos()); s != "one=completed two=in_progress" {
		t.Fatalf("plan after two turns = %s", s)
	}
	if _, err := e.agent.Session.Rewind(second.Run, nil); err != nil {
		t.Fatal(err)
	}
	if s := statuses(e.agent.Session.Todos()); s != "one=in_progress" {
		t.Errorf("plan after the rewind = %s", s)
	}
	e.agent.Session.Close()
	r, err := OpenSession(e.root, e.agent.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s := statuses(r.Todos()); s != "one=in_progress" {
		t.Errorf("resumed plan after the rewind = %s", s)
	}
}

// A compaction summarises the calls that wrote the plan away; the
// summary carries the plan on, in the log too.
func TestCompactionKeepsThePlan(t *testing.T) {
	e := newEnv(t, texts(planCall("- [x] read\n- [>] write\n- [-] dance\n"), "Writing.", "The user wants a file written.", "Yes.")...)
	e.withPlanTool()
	if _, err := e.run("write it"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.agent.Compact(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	want := "[Your plan, as you last wrote it with todo_write (1 of 2 done):\n- [x] read\n- [>] write\n- [-] dance\n]"
	msgs := e.agent.Session.Messages()
	if !strings.Contains(msgs[0].Text, "The user wants a file written.") || !strings.HasSuffix(msgs[0].Text, want) {
		t.Fatalf("summary = %q, want it to end with the plan", msgs[0].Text)
	}
	e.agent.Session.Close()
	r, err := OpenSession(e.root, e.agent.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if m := r.Messages(); !strings.HasSuffix(m[0].Text, want) || statuses(r.Todos()) != "read=completed write=in_progress dance=cancelled" {
		t.Errorf("resumed after compaction: %q, plan %s", m[0].Text, statuses(r.Todos()))
	}
}

type askArgs struct {
	Question string `json:"question"`
}

// askTool asks the person through the call's context, as ask_user does.
var askTool = tools.New("ask", "Ask.", func(ctx context.Context, a askArgs) (tools.Result, error) {
	u := tools.UserAskerOf(ctx)
	if u == nil {
		return tools.Result{Message: "nobody"}, nil
	}
	ans, err := u.AskUser(ctx, tools.UserQuestion{Question: a.Question})
	if err != nil {
		return tools.Result{}, err
	}
	return tools.Result{Message: "answer: " + ans.Text}, nil
})

type userAskFunc func(context.Context, tools.UserQuestion) (tools.UserAnswer, error)

func (f userAskFunc) AskUser(ctx context.Context, q tools.UserQuestion) (tools.UserAnswer, error) {
	return f(ctx, q)
}

// The moments a person may be waited for are each one notification,
// before the wait: an approval asked, a question asked, and the turn's
// end just before its done event.
func TestNotificationsBeforeEachWait(t *testing.T) {
	e := newEnv(t, texts(
		`<tool_call name="write_file"><operation_type>create</operation_type><file_path>a.txt</file_path><content>x</content></tool_call>`,
		`<tool_call name="ask"><question>Which colour?</question></tool_call>`,
		"Blue it is.",
	)...)
	e.agent.Tools.Add(askTool)
	var seen []string
	notified := func() string {
		var kinds []string
		for _, ev := range e.events {
			if ev.Type == EventNotification {
				kinds = append(kinds, ev.Notification.Kind+": "+ev.Notification.Message)
			}
		}
		return strings.Join(kinds, " | ")
	}
	e.agent.Approval = approvalSetup{Policy: PolicyAsk, Ask: AskFunc(func(context.Context, Question) (Answer, error) {
		seen = append(seen, "approval asked after "+notified())
		return Answer{Decision: Allow}, nil
	})}.approval()
	e.agent.AskUser = userAskFunc(func(_ context.Context, q tools.UserQuestion) (tools.UserAnswer, error) {
		seen = append(seen, "question asked after "+notified())
		return tools.UserAnswer{Text: "blue"}, nil
	})
	out, err := e.run("paint it")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"approval asked after approval: approve write_file?",
		"question asked after approval: approve write_file? | question: Which colour?",
	}
	if !slices.Equal(seen, want) {
		t.Errorf("asked:\n%s\nwant:\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
	if r := e.results(); r[1].Result.Message != "answer: blue" {
		t.Errorf("ask answered %q", r[1].Result.Message)
	}
	n := len(e.events)
	if e.events[n-2].Type != EventNotification || e.events[n-2].Notification.Kind != NotifyDone || e.events[n-1].Type != EventDone || out.Answer != "Blue it is." {
		t.Errorf("the run ends with %v, %v", e.events[n-2].Type, e.events[n-1].Type)
	}
}

// With nobody to ask the tool finds no asker, and a failed run also ends
// with the notification before its error.
func TestNoUserAskerAndTheEndOfAFailedRun(t *testing.T) {
	e := newEnv(t, texts(`<tool_call name="ask"><question>Which?</question></tool_call>`)...)
	e.agent.Tools.Add(askTool)
	if _, err := e.run("go"); err == nil {
		t.Fatal("the run with no reply left succeeded")
	}
	if r := e.results(); len(r) != 1 || r[0].Result.Message != "nobody" {
		t.Errorf("results = %+v", r)
	}
	n := len(e.events)
	if e.events[n-2].Type != EventNotification || e.events[n-1].Type != EventError {
		t.Errorf("the failed run ends with %v, %v", e.events[n-2].Type, e.events[n-1].Type)
	}
}

package ask_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/ask"
)

type person struct {
	asked  []tools.UserQuestion
	answer tools.UserAnswer
	err    error
}

func (p *person) AskUser(_ context.Context, q tools.UserQuestion) (tools.UserAnswer, error) {
	p.asked = append(p.asked, q)
	return p.answer, p.err
}

func call(t *testing.T, ctx context.Context, args map[string]string) (tools.Result, error) {
	t.Helper()
	reg := tools.NewRegistry(ask.New())
	tool, in, bad := reg.Validate(ask.Name, args)
	if bad != nil {
		return *bad, nil
	}
	return reg.Execute(ctx, tool, in)
}

func TestAskUserPutsTheQuestion(t *testing.T) {
	p := &person{answer: tools.UserAnswer{Chosen: []string{"SQLite", "both"}}}
	ctx := tools.WithUserAsker(t.Context(), p)
	res, err := call(t, ctx, map[string]string{"question": " Which? ", "options": "- PostgreSQL\n\n SQLite \nboth\n", "multiple": "true"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.asked) != 1 || p.asked[0].Question != "Which?" || strings.Join(p.asked[0].Options, "|") != "PostgreSQL|SQLite|both" || !p.asked[0].Multiple {
		t.Errorf("asked %+v", p.asked)
	}
	if res.IsError() || res.Message != `the user chose "SQLite", "both"` || res.Content != "SQLite\nboth\n" {
		t.Errorf("result = %+v", res)
	}

	p.answer = tools.UserAnswer{Text: "neither, use files"}
	res, _ = call(t, ctx, map[string]string{"question": "Which?"})
	if res.Content != "neither, use files\n" || !strings.Contains(res.Message, "own words") {
		t.Errorf("own words: %+v", res)
	}
	p.answer = tools.UserAnswer{Declined: true}
	res, _ = call(t, ctx, map[string]string{"question": "Which?"})
	if !strings.HasPrefix(res.Message, "the user declined to answer; decide yourself") || res.IsError() {
		t.Errorf("declined: %+v", res)
	}
	def := ask.New().Definition()
	if !def.OnDemand || !def.NotServed || def.Writes || def.Timeout == 0 {
		t.Errorf("definition = %+v: want on demand, not served, writing nothing, its own time limit", def)
	}
}

// Nobody to ask: the answer comes at once, never an error, so that the
// model goes on and later writes of the reply are not skipped.
func TestAskUserWithNobodyToAsk(t *testing.T) {
	res, err := call(t, t.Context(), map[string]string{"question": "Which?", "options": "a\nb"})
	if err != nil || res.IsError() || res.Message != ask.NoOneToAnswer {
		t.Errorf("result = %+v, %v", res, err)
	}
}

// The person stopping the turn while asked ends the call as interrupted.
func TestAskUserInterrupted(t *testing.T) {
	p := &person{err: context.Canceled}
	res, err := call(t, tools.WithUserAsker(t.Context(), p), map[string]string{"question": "Which?"})
	if !errors.Is(err, context.Canceled) || res.Code != tools.CodeInterrupted {
		t.Errorf("result = %+v, %v", res, err)
	}
}

func TestAskUserRefusesABadQuestion(t *testing.T) {
	p := &person{}
	ctx := tools.WithUserAsker(t.Context(), p)
	for _, c := range []struct {
		args map[string]string
		want string
	}{
		{map[string]string{"question": "  "}, "the question is empty"},
		{map[string]string{"question": "Which?", "options": "only", "multiple": "true"}, "fewer than two options"},
		{map[string]string{"question": "Which?", "options": strings.Repeat("x\n", 21)}, "21 options are too many"},
		{map[string]string{"question": "Which?", "options": strings.Repeat("x", 201)}, "option 1 is 201 characters long"},
		{map[string]string{"question": strings.Repeat("x", 2001)}, "2001 characters long"},
	} {
		res, err := call(t, ctx, c.args)
		if err != nil || res.Code != tools.CodeSchemaInvalid || !strings.Contains(res.Message, c.want) {
			t.Errorf("%v: %+v, %v; want %q", c.args, res, err, c.want)
		}
	}
	if len(p.asked) != 0 {
		t.Errorf("a bad question was put to the person: %+v", p.asked)
	}
}

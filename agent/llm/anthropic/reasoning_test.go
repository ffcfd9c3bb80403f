package anthropic

import (
	"slices"
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// A thought that looks like a call must stay a thought: the loop parses
// only Text.
const fakeCall = `<tool_call name="write_file"><file_path>x</file_path></tool_call>`

func TestReasoningHighOnTheWire(t *testing.T) {
	s := llmtest.NewAnthropicServer(t, llmtest.Say("answer").WithThoughts("let me think ", fakeCall))
	m := newTestModel(t, s, llm.Policy{})
	req := hi
	req.Reasoning = llm.ReasoningHigh
	text, thoughts, err := llmtest.CollectThoughts(m.Stream(t.Context(), req))
	if err != nil {
		t.Fatal(err)
	}
	if text != "answer" || thoughts != "let me think "+fakeCall {
		t.Errorf("text %q, thoughts %q; want the answer and the thoughts apart", text, thoughts)
	}
	r := s.Requests()[0]
	if want := llm.ReasoningHigh.ThinkingBudget(); r.ThinkingBudget != want {
		t.Errorf("thinking.budget_tokens = %d, want %d", r.ThinkingBudget, want)
	}
	if r.MaxTokens <= r.ThinkingBudget {
		t.Errorf("max_tokens %d is not above the thinking budget %d", r.MaxTokens, r.ThinkingBudget)
	}
}

func TestReasoningDefaultSendsNothing(t *testing.T) {
	s := llmtest.NewAnthropicServer(t, llmtest.Say("ok"))
	if _, _, _, err := llmtest.Collect(newTestModel(t, s, llm.Policy{}).Stream(t.Context(), hi)); err != nil {
		t.Fatal(err)
	}
	if r := s.Requests()[0]; r.ThinkingBudget != -1 {
		t.Errorf("thinking budget %d sent without reasoning asked for", r.ThinkingBudget)
	}
}

func TestCacheBreakpoints(t *testing.T) {
	s := llmtest.NewAnthropicServer(t, llmtest.Say("ok").WithUsage(3000, 2).WithCache(2500, 400))
	m := newTestModel(t, s, llm.Policy{})
	req := llm.Request{System: "the system prompt", Messages: []llm.Message{
		{Role: llm.User, Text: "read it"},
		{Role: llm.Assistant, Text: "reading"},
		{Role: llm.User, Text: "the tool response"},
	}}
	_, usage, _, err := llmtest.Collect(m.Stream(t.Context(), req))
	if err != nil {
		t.Fatal(err)
	}
	r := s.Requests()[0]
	if want := []string{"system", "messages[2]"}; !slices.Equal(r.CacheBreakpoints, want) {
		t.Errorf("cache breakpoints %v, want %v (the system prompt and the latest turn)", r.CacheBreakpoints, want)
	}
	if r.System != req.System || r.LastUser() != "the tool response" {
		t.Errorf("the marked blocks lost their text: %q, %q", r.System, r.LastUser())
	}
	want := llm.Usage{InputTokens: 3000, OutputTokens: 2, CachedTokens: 2500, CacheWriteTokens: 400}
	if usage == nil || *usage != want {
		t.Errorf("usage %+v, want %+v", usage, want)
	}
}

package gemini

import (
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

func TestReasoningHighOnTheWire(t *testing.T) {
	call := `<tool_call name="write_file"><file_path>x</file_path></tool_call>`
	a := llmtest.Say("answer").WithThoughts("hmm ", call)
	a.Usage = &llm.Usage{InputTokens: 50, OutputTokens: 3, ThinkingTokens: 40}
	s := llmtest.NewGeminiServer(t, a)
	m := newTestModel(t, s, llm.Policy{})
	req := llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "hi"}}, Reasoning: llm.ReasoningHigh}
	seq := m.Stream(t.Context(), req)
	var text, thoughts string
	var usage *llm.Usage
	for c, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		text += c.Text
		thoughts += c.Thought
		if c.Usage != nil {
			usage = c.Usage
		}
	}
	if text != "answer" || thoughts != "hmm "+call {
		t.Errorf("text %q, thoughts %q; want them apart", text, thoughts)
	}
	r := s.Requests()[0]
	if r.ThinkingBudget != llm.ReasoningHigh.ThinkingBudget() || !r.IncludeThoughts {
		t.Errorf("thinkingConfig budget %d, includeThoughts %v; want %d, true", r.ThinkingBudget, r.IncludeThoughts, llm.ReasoningHigh.ThinkingBudget())
	}
	if usage == nil || usage.ThinkingTokens != 40 || usage.OutputTokens != 43 {
		t.Errorf("usage %+v, want 40 thinking tokens within 43 output", usage)
	}
}

func TestReasoningOffIsBudgetZero(t *testing.T) {
	s := llmtest.NewGeminiServer(t, llmtest.Say("ok"))
	req := llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "hi"}}, Reasoning: llm.ReasoningOff}
	if _, _, _, err := llmtest.Collect(newTestModel(t, s, llm.Policy{}).Stream(t.Context(), req)); err != nil {
		t.Fatal(err)
	}
	if r := s.Requests()[0]; r.ThinkingBudget != 0 || r.IncludeThoughts {
		t.Errorf("thinking budget %d, includeThoughts %v; want 0, false", r.ThinkingBudget, r.IncludeThoughts)
	}
}

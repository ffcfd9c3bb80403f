package openai

import (
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

func TestReasoningHighOnTheWire(t *testing.T) {
	call := `<tool_call name="write_file"><file_path>x</file_path></tool_call>`
	a := llmtest.Say("answer").WithThoughts("hmm ", call)
	a.Usage = &llm.Usage{InputTokens: 50, OutputTokens: 43, ThinkingTokens: 40, CachedTokens: 32}
	s := llmtest.NewOpenAIServer(t, a)
	m := newTestModel(t, s, llm.Policy{})
	req := llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "hi"}}, Reasoning: llm.ReasoningHigh}
	var text, thoughts string
	var usage *llm.Usage
	for c, err := range m.Stream(t.Context(), req) {
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
	if r := s.Requests()[0]; r.ReasoningEffort != "high" {
		t.Errorf("reasoning_effort = %q, want high", r.ReasoningEffort)
	}
	if usage == nil || *usage != *a.Usage {
		t.Errorf("usage %+v, want %+v", usage, a.Usage)
	}
}

func TestReasoningOffSendsNoEffort(t *testing.T) {
	s := llmtest.NewOpenAIServer(t, llmtest.Say("ok"))
	req := llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "hi"}}, Reasoning: llm.ReasoningOff}
	if _, _, _, err := llmtest.Collect(newTestModel(t, s, llm.Policy{}).Stream(t.Context(), req)); err != nil {
		t.Fatal(err)
	}
	if r := s.Requests()[0]; r.ReasoningEffort != "" {
		t.Errorf("reasoning_effort %q sent for off; models that do not reason reject it", r.ReasoningEffort)
	}
}

package anthropic

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

func newTestModel(t testing.TB, s *llmtest.Server, p llm.Policy) llm.Model {
	t.Helper()
	m, err := New(Options{Model: "claude-test", APIKey: "llmtest-key", BaseURL: s.URL, Policy: p})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var hi = llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "hi"}}}

func TestModel(t *testing.T) {
	llmtest.RunModelTests(t, llmtest.Provider{
		NewServer: llmtest.NewAnthropicServer,
		NewModel:  newTestModel,
		// The API has no documented limit; the suite sends seven.
		MaxStop:    7,
		KeySetting: "ANTHROPIC_API_KEY",
	})
}

func TestWire(t *testing.T) {
	s := llmtest.NewAnthropicServer(t, llmtest.Say("ok"))
	m := newTestModel(t, s, llm.Policy{})
	if _, _, _, err := llmtest.Collect(m.Stream(t.Context(), hi)); err != nil {
		t.Fatal(err)
	}
	r := s.Requests()[0]
	// The API key travels as a bearer token, as SDK v2 sent it.
	if got := r.Header.Get("Authorization"); got != "Bearer llmtest-key" {
		t.Errorf("Authorization = %q", got)
	}
	if r.Header.Get("Anthropic-Version") == "" {
		t.Error("no anthropic-version header")
	}
	if r.MaxTokens != DefaultMaxTokens {
		t.Errorf("max_tokens = %d, want the default %d", r.MaxTokens, DefaultMaxTokens)
	}
	var body map[string]any
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	if _, ok := body["system"]; ok {
		t.Errorf("an empty system prompt was sent: %v", body["system"])
	}
}

func TestStopSequenceFinish(t *testing.T) {
	s := llmtest.NewAnthropicServer(t, llmtest.Say("ok").WithFinish("stop_sequence"))
	m := newTestModel(t, s, llm.Policy{})
	req := hi
	req.Stop = []string{"<tool_response"}
	_, usage, finish, err := llmtest.Collect(m.Stream(t.Context(), req))
	if err != nil || finish != "stop_sequence" {
		t.Errorf("finish = %q, %v; want stop_sequence", finish, err)
	}
	if usage == nil || usage.OutputTokens != 1 || usage.InputTokens != 10 {
		t.Errorf("usage = %+v, want 10 in, 1 out", usage)
	}
}

func TestOverloadedEventIsRetried(t *testing.T) {
	ev := llmtest.Say().WithFault(llmtest.FaultErrorEvent)
	ev.Status, ev.Message = 529, "Overloaded"
	s := llmtest.NewAnthropicServer(t, ev, ev, ev)
	var sl llmtest.Sleeps
	m := newTestModel(t, s, llm.Policy{Sleep: sl.Sleep})
	_, _, _, err := llmtest.Collect(m.Stream(t.Context(), hi))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindServer || e.Status != 529 || e.Attempts != 3 {
		t.Fatalf("err = %v, want an overloaded server error after 3 attempts", err)
	}
}

func TestAuthToken(t *testing.T) {
	s := llmtest.NewAnthropicServer(t, llmtest.Say("ok"))
	m, err := New(Options{Model: "claude-test", AuthToken: "tok", BaseURL: s.URL})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := llmtest.Collect(m.Stream(t.Context(), hi)); err != nil {
		t.Fatal(err)
	}
	if got := s.Requests()[0].Header.Get("Authorization"); got != "Bearer tok" {
		t.Errorf("Authorization = %q", got)
	}
}

// BenchmarkStream is one streamed reply of three chunks through the client
// against the fake server on 127.0.0.1: the agent's own cost per model
// call, with no model latency.
func BenchmarkStream(b *testing.B) {
	s := llmtest.NewAnthropicServer(b)
	m := newTestModel(b, s, llm.Policy{})
	req := llm.Request{System: "be brief", Messages: []llm.Message{{Role: llm.User, Text: "hi"}}, Stop: []string{"<tool_response"}}
	for b.Loop() {
		s.Push(llmtest.Say("a", "b", "c"))
		if _, _, _, err := llmtest.Collect(m.Stream(b.Context(), req)); err != nil {
			b.Fatal(err)
		}
	}
}

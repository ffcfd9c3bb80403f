package openai

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

func newTestModel(t testing.TB, s *llmtest.Server, p llm.Policy) llm.Model {
	t.Helper()
	m, err := New(Options{Model: "gpt-test", APIKey: "llmtest-key", BaseURL: s.URL, Policy: p})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var hi = llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "hi"}}, MaxTokens: 9}

func TestModel(t *testing.T) {
	llmtest.RunModelTests(t, llmtest.Provider{
		NewServer:  llmtest.NewOpenAIServer,
		NewModel:   newTestModel,
		MaxStop:    MaxStop,
		KeySetting: "OPENAI_API_KEY",
	})
}

func TestWire(t *testing.T) {
	s := llmtest.NewOpenAIServer(t, llmtest.Say("ok"))
	m := newTestModel(t, s, llm.Policy{})
	if _, _, _, err := llmtest.Collect(m.Stream(t.Context(), hi)); err != nil {
		t.Fatal(err)
	}
	r := s.Requests()[0]
	if got := r.Header.Get("Authorization"); got != "Bearer llmtest-key" {
		t.Errorf("Authorization = %q", got)
	}
	if r.Model != "gpt-test" {
		t.Errorf("model = %q", r.Model)
	}
	var body map[string]any
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	if body["max_tokens"] != 9.0 || body["max_completion_tokens"] != nil {
		t.Errorf("token limit sent as %v / %v, want max_tokens 9", body["max_tokens"], body["max_completion_tokens"])
	}
	if so, _ := body["stream_options"].(map[string]any); so["include_usage"] != true {
		t.Errorf("stream_options = %v, want include_usage", body["stream_options"])
	}
}

func TestMaxCompletionTokens(t *testing.T) {
	s := llmtest.NewOpenAIServer(t, llmtest.Say("ok"))
	m, err := New(Options{Model: "o3", BaseURL: s.URL, MaxCompletionTokens: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := llmtest.Collect(m.Stream(t.Context(), hi)); err != nil {
		t.Fatal(err)
	}
	if b := string(s.Requests()[0].Body); !strings.Contains(b, `"max_completion_tokens":9`) || strings.Contains(b, `"max_tokens"`) {
		t.Errorf("body = %s, want max_completion_tokens only", b)
	}
}

func TestNoKeyNoAuthorization(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "secret-from-env")
	s := llmtest.NewOpenAIServer(t, llmtest.Say("ok"))
	m, err := New(Options{Provider: "ollama", Model: "qwen3", BaseURL: s.URL})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := llmtest.Collect(m.Stream(t.Context(), hi)); err != nil {
		t.Fatal(err)
	}
	if got := s.Requests()[0].Header.Get("Authorization"); strings.Contains(got, "secret-from-env") {
		t.Errorf("the environment's OpenAI key went to another server: %q", got)
	}
	if m.Name() != "ollama/qwen3" {
		t.Errorf("Name() = %q", m.Name())
	}
}

func TestStopRefusedIsDropped(t *testing.T) {
	refuse := llmtest.Raw(400, `{"error":{"message":"Unsupported parameter: 'stop' is not supported with this model.","type":"invalid_request_error","param":"stop","code":"unsupported_parameter"}}`)
	s := llmtest.NewOpenAIServer(t, refuse, llmtest.Say("ok"), llmtest.Say("again"))
	m := newTestModel(t, s, llm.Policy{})
	req := hi
	req.Stop = []string{"<tool_response"}
	for _, want := range []string{"ok", "again"} {
		text, _, _, err := llmtest.Collect(m.Stream(t.Context(), req))
		if err != nil || text != want {
			t.Fatalf("got %q, %v; want %q", text, err, want)
		}
	}
	rs := s.Requests()
	if len(rs) != 3 || len(rs[0].Stop) != 1 || rs[1].Stop != nil || rs[2].Stop != nil {
		t.Errorf("stop per request: %v, %v, %v; want it once, then never", rs[0].Stop, rs[1].Stop, rs[2].Stop)
	}
}

func TestErrorEventStatus(t *testing.T) {
	ev := llmtest.Raw(200, "data: {\"error\":{\"code\":429,\"message\":\"slow down\"}}\n\n")
	s := llmtest.NewOpenAIServer(t, ev, llmtest.Say("ok"))
	var sl llmtest.Sleeps
	m := newTestModel(t, s, llm.Policy{Sleep: sl.Sleep})
	text, _, _, err := llmtest.Collect(m.Stream(t.Context(), hi))
	if err != nil || text != "ok" || len(sl.Waits()) != 1 {
		t.Errorf("got %q, %v after waits %v; want ok after one wait", text, err, sl.Waits())
	}
}

// BenchmarkStream is one streamed reply of three chunks through the client
// against the fake server on 127.0.0.1: the agent's own cost per model
// call, with no model latency.
func BenchmarkStream(b *testing.B) {
	s := llmtest.NewOpenAIServer(b)
	m := newTestModel(b, s, llm.Policy{})
	req := llm.Request{System: "be brief", Messages: []llm.Message{{Role: llm.User, Text: "hi"}}, Stop: []string{"<tool_response"}}
	for b.Loop() {
		s.Push(llmtest.Say("a", "b", "c"))
		if _, _, _, err := llmtest.Collect(m.Stream(b.Context(), req)); err != nil {
			b.Fatal(err)
		}
	}
}

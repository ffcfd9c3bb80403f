package gemini

import (
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

func newTestModel(t testing.TB, s *llmtest.Server, p llm.Policy) llm.Model {
	t.Helper()
	m, err := New(t.Context(), Options{Model: "gemini-test", APIKey: "llmtest-key", BaseURL: s.URL, Policy: p})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestModel(t *testing.T) {
	llmtest.RunModelTests(t, llmtest.Provider{
		NewServer:  llmtest.NewGeminiServer,
		NewModel:   newTestModel,
		MaxStop:    MaxStop,
		KeySetting: "GEMINI_API_KEY",
	})
}

func TestWire(t *testing.T) {
	s := llmtest.NewGeminiServer(t, llmtest.Say("ok"))
	m := newTestModel(t, s, llm.Policy{})
	req := llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "hi"}}}
	if _, _, _, err := llmtest.Collect(m.Stream(t.Context(), req)); err != nil {
		t.Fatal(err)
	}
	r := s.Requests()[0]
	if r.Path != "/v1beta/models/gemini-test:streamGenerateContent" || r.Query.Get("alt") != "sse" {
		t.Errorf("request went to %s?%s", r.Path, r.Query.Encode())
	}
	if got := r.Header.Get("X-Goog-Api-Key"); got != "llmtest-key" {
		t.Errorf("x-goog-api-key = %q", got)
	}
	if strings.Contains(string(r.Body), "utomaticContinuation") {
		t.Errorf("a client-side option leaked into the body: %s", r.Body)
	}
	if m.Name() != "gemini/gemini-test" {
		t.Errorf("Name() = %q", m.Name())
	}
}

func TestRetryInfoDetails(t *testing.T) {
	body := `{"error": {"code": 429, "message": "quota", "status": "RESOURCE_EXHAUSTED", "details": [
	  {"@type": "type.googleapis.com/google.rpc.QuotaFailure"},
	  {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "13s"}]}}`
	s := llmtest.NewGeminiServer(t, llmtest.Raw(429, body), llmtest.Say("ok"))
	var sl llmtest.Sleeps
	m := newTestModel(t, s, llm.Policy{Sleep: sl.Sleep})
	text, _, _, err := llmtest.Collect(m.Stream(t.Context(), llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "hi"}}}))
	if err != nil || text != "ok" {
		t.Fatalf("got %q, %v", text, err)
	}
	if w := sl.Waits(); len(w) != 1 || w[0] != 13*time.Second {
		t.Errorf("waits = %v, want [13s] from RetryInfo", w)
	}
}

func TestFinishLength(t *testing.T) {
	s := llmtest.NewGeminiServer(t, llmtest.Say("cut").WithFinish("length"))
	m := newTestModel(t, s, llm.Policy{})
	_, _, finish, err := llmtest.Collect(m.Stream(t.Context(), llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "hi"}}}))
	if err != nil || finish != "length" {
		t.Errorf("finish = %q, %v; want length", finish, err)
	}
}

func TestThoughtsAreNotText(t *testing.T) {
	body := "data: " + `{"candidates":[{"content":{"role":"model","parts":[{"text":"hmm","thought":true},{"text":"answer"}]},"finishReason":"STOP"}]}` + "\r\n\r\n"
	s := llmtest.NewGeminiServer(t, llmtest.Raw(200, body))
	m := newTestModel(t, s, llm.Policy{})
	text, _, _, err := llmtest.Collect(m.Stream(t.Context(), llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "hi"}}}))
	if err != nil || text != "answer" {
		t.Errorf("got %q, %v; want only the answer", text, err)
	}
}

func TestNewNeedsKey(t *testing.T) {
	_, err := New(t.Context(), Options{Model: "m", KeySetting: "GOOGLE_API_KEY"})
	if err == nil || !strings.Contains(err.Error(), "GOOGLE_API_KEY") {
		t.Errorf("err = %v, want it to name GOOGLE_API_KEY", err)
	}
}

// BenchmarkStream is one streamed reply of three chunks through the SDK
// against the fake server on 127.0.0.1: the agent's own cost per model
// call, with no model latency.
func BenchmarkStream(b *testing.B) {
	s := llmtest.NewGeminiServer(b)
	m := newTestModel(b, s, llm.Policy{})
	req := llm.Request{System: "be brief", Messages: []llm.Message{{Role: llm.User, Text: "hi"}}, Stop: []string{"<tool_response"}}
	for b.Loop() {
		s.Push(llmtest.Say("a", "b", "c"))
		if _, _, _, err := llmtest.Collect(m.Stream(b.Context(), req)); err != nil {
			b.Fatal(err)
		}
	}
}

func TestKeyInvalidNamesTheKeySetting(t *testing.T) {
	s := llmtest.NewGeminiServer(t, llmtest.GeminiKeyInvalid(), llmtest.Say("never"))
	m, err := New(t.Context(), Options{Model: "gemini-test", APIKey: "llmtest-key", BaseURL: s.URL, KeySetting: "MY_GEMINI_KEY"})
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, err = llmtest.Collect(m.Stream(t.Context(), llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "hi"}}}))
	want := "gemini rejected the API key (400: API key not valid. Please pass a valid API key.): check MY_GEMINI_KEY"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	if n := len(s.Requests()); n != 1 {
		t.Errorf("%d requests, want 1 (a wrong key is not retried)", n)
	}
}

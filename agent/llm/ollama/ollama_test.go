package ollama_test

import (
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/agent/llm/ollama"
)

const testModel = "llmtest-model"

func newServer(t testing.TB, answers ...llmtest.Answer) *llmtest.OllamaServer {
	return llmtest.NewOllamaServer(t, []llmtest.OllamaModel{{Name: testModel + ":latest", Max: 131072}}, answers...)
}

func newModel(t testing.TB, url string, p llm.Policy) *ollama.Model {
	t.Helper()
	m, err := ollama.New(ollama.Options{Model: testModel, BaseURL: url, Policy: p, APIKey: "llmtest-key"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestConformance(t *testing.T) {
	llmtest.RunModelTests(t, llmtest.Provider{
		NewServer: func(t testing.TB, answers ...llmtest.Answer) *llmtest.Server {
			return newServer(t, answers...).Server
		},
		NewModel: func(t testing.TB, s *llmtest.Server, p llm.Policy) llm.Model {
			return newModel(t, s.URL, p)
		},
		MaxStop:    ollama.MaxStop,
		KeySetting: "OLLAMA_API_KEY",
	})
}

func quick() llm.Policy {
	sl := &llmtest.Sleeps{}
	return llm.Policy{Sleep: sl.Sleep, Timeout: 5 * time.Second}
}

func ask(text string) llm.Request {
	return llm.Request{System: "be brief", Messages: []llm.Message{{Role: llm.User, Text: text}}, MaxTokens: 1000}
}

// TestNumCtxChosenOnceForTheConversation: the window is sized to what the
// conversation needs (rounded up to a step, within the model's trained
// context and the cap) at the first request, and every later request of
// the conversation asks for the same one, however large it is.
func TestNumCtxChosenOnceForTheConversation(t *testing.T) {
	s := newServer(t, llmtest.Say("one"), llmtest.Say("two"), llmtest.Say("three"))
	m := newModel(t, s.URL, quick())
	w := m.Window(t.Context(), 18000)
	if w.Tokens != 20480 || !strings.Contains(w.Source, "131072") {
		t.Fatalf("window = %+v, want 20480 tokens, naming the model's maximum", w)
	}
	for _, text := range []string{"short", strings.Repeat("long ", 5000), "short again"} {
		if _, _, _, err := llmtest.Collect(m.Stream(t.Context(), ask(text))); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range s.Requests() {
		if r.NumCtx != 20480 || r.Window != 20480 || r.Lost != 0 {
			t.Errorf("request %d: num_ctx %d, served with %d, lost %d; want 20480 each time and nothing lost", i, r.NumCtx, r.Window, r.Lost)
		}
	}
	if got := m.Window(t.Context(), 100000).Tokens; got != 20480 {
		t.Errorf("a later Window = %d, want the conversation's 20480", got)
	}
	if ms := s.Models(); ms[0].Loaded != 20480 {
		t.Errorf("the server has the model loaded with %d, want 20480", ms[0].Loaded)
	}
}

// TestNumCtxWithoutWindowCall: a model asked to stream before anyone
// chose its window (a model switched mid-chat) sizes it from the first
// request, and keeps it.
func TestNumCtxWithoutWindowCall(t *testing.T) {
	s := newServer(t, llmtest.Say("one"), llmtest.Say("two"))
	m := newModel(t, s.URL, quick())
	for _, text := range []string{"hi", strings.Repeat("word ", 20000)} {
		if _, _, _, err := llmtest.Collect(m.Stream(t.Context(), ask(text))); err != nil {
			t.Fatal(err)
		}
	}
	reqs := s.Requests()
	if reqs[0].NumCtx != 12288 || reqs[1].NumCtx != reqs[0].NumCtx {
		t.Errorf("num_ctx = %d then %d, want 12288 (request, reply and room, rounded) both times", reqs[0].NumCtx, reqs[1].NumCtx)
	}
}

func TestChooseNumCtx(t *testing.T) {
	for _, c := range []struct {
		name                         string
		need, trained, loaded, limit int
		want                         int
	}{
		{"rounded up to the step", 5000, 131072, 0, 32768, 8192},
		{"exact step", 8192, 131072, 0, 32768, 8192},
		{"capped for memory", 50000, 131072, 0, 32768, 32768},
		{"at most the trained context", 18000, 8192, 0, 32768, 8192},
		{"a short model", 6000, 2048, 0, 32768, 2048},
		{"unknown trained context", 18000, 0, 0, 32768, 20480},
		{"no wish: the cap", 0, 131072, 0, 32768, 32768},
		{"kept as loaded: no reload", 18000, 131072, 32768, 32768, 32768},
		{"loaded too small: reloaded", 18000, 131072, 4096, 32768, 20480},
		{"loaded beyond the cap: reloaded", 18000, 131072, 65536, 32768, 20480},
		{"a larger cap", 50000, 131072, 0, 65536, 53248},
	} {
		if got := ollama.ChooseNumCtx(c.need, c.trained, c.loaded, c.limit); got != c.want {
			t.Errorf("%s: ChooseNumCtx(%d, %d, %d, %d) = %d, want %d", c.name, c.need, c.trained, c.loaded, c.limit, got, c.want)
		}
	}
}

// TestConfiguredNumCtxWins: context_window is sent as it is, without
// asking the server.
func TestConfiguredNumCtxWins(t *testing.T) {
	s := newServer(t, llmtest.Say("ok"))
	m, err := ollama.New(ollama.Options{Model: testModel, BaseURL: s.URL, NumCtx: 65536, Policy: quick()})
	if err != nil {
		t.Fatal(err)
	}
	if w := m.Window(t.Context(), 1000); w.Tokens != 65536 {
		t.Errorf("window = %+v, want 65536", w)
	}
	if _, _, _, err := llmtest.Collect(m.Stream(t.Context(), ask("hi"))); err != nil {
		t.Fatal(err)
	}
	if r := s.Requests()[0]; r.NumCtx != 65536 {
		t.Errorf("num_ctx = %d, want 65536", r.NumCtx)
	}
}

// TestThink maps the reasoning levels onto Ollama's think field, and the
// thinking in the stream onto thoughts.
func TestThink(t *testing.T) {
	for _, c := range []struct {
		level llm.Reasoning
		want  string
	}{{llm.ReasoningDefault, ""}, {llm.ReasoningOff, "false"}, {llm.ReasoningLow, `"low"`}, {llm.ReasoningHigh, `"high"`}} {
		s := newServer(t, llmtest.Say("answer").WithThoughts("let me ", "think"))
		req := ask("q")
		req.Reasoning = c.level
		text, thoughts, err := llmtest.CollectThoughts(newModel(t, s.URL, quick()).Stream(t.Context(), req))
		if err != nil {
			t.Fatal(err)
		}
		if text != "answer" || thoughts != "let me think" {
			t.Errorf("%q: text %q, thoughts %q; want them apart", c.level, text, thoughts)
		}
		if got := s.Requests()[0].Think; got != c.want {
			t.Errorf("reasoning %q sent think %q, want %q", c.level, got, c.want)
		}
	}
}

// TestThinkRefused: a model that cannot think answers 400 to think; the
// request is sent again without it, once for the conversation.
func TestThinkRefused(t *testing.T) {
	refuse := llmtest.Fail(http.StatusBadRequest)
	refuse.Message = `"llmtest-model" does not support thinking`
	s := newServer(t, refuse, llmtest.Say("plain"), llmtest.Say("again"))
	m := newModel(t, s.URL, quick())
	req := ask("q")
	req.Reasoning = llm.ReasoningHigh
	for range 2 {
		if _, _, _, err := llmtest.Collect(m.Stream(t.Context(), req)); err != nil {
			t.Fatal(err)
		}
	}
	reqs := s.Requests()
	if len(reqs) != 3 || reqs[0].Think != `"high"` || reqs[1].Think != "" || reqs[2].Think != "" {
		t.Errorf("think sent: %d requests, want \"high\" once and then none", len(reqs))
	}
}

// TestModelNotPulled: a model the server does not have says how to get it.
func TestModelNotPulled(t *testing.T) {
	s := newServer(t)
	m, err := ollama.New(ollama.Options{Model: "llama3.2", BaseURL: s.URL, Policy: quick()})
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, err = llmtest.Collect(m.Stream(t.Context(), ask("hi")))
	if err == nil || !strings.Contains(err.Error(), "run `ollama pull llama3.2`") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v, want one line saying to run ollama pull llama3.2", err)
	}
	if n := len(s.Requests()); n != 1 {
		t.Errorf("%d requests, want 1 (no retry)", n)
	}
}

// TestNotRunning: nothing listening at the address says Ollama is not
// running there.
func TestNotRunning(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://" + l.Addr().String()
	l.Close()
	pol := quick()
	pol.Attempts = 1
	_, _, _, err = llmtest.Collect(newModel(t, addr, pol).Stream(t.Context(), ask("hi")))
	var e *llm.Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "Ollama is not running at "+addr+" (connection refused)") {
		t.Fatalf("err = %v, want it to say Ollama is not running at %s", err, addr)
	}
}

// TestBaseURLWithV1: an address written for the OpenAI-compatible API
// (…/v1) reaches the native one.
func TestBaseURLWithV1(t *testing.T) {
	s := newServer(t, llmtest.Say("ok"))
	text, _, _, err := llmtest.Collect(newModel(t, s.URL+"/v1/", quick()).Stream(t.Context(), ask("hi")))
	if err != nil || text != "ok" {
		t.Fatalf("got %q, %v", text, err)
	}
	if p := s.Requests()[0].Path; p != "/api/chat" {
		t.Errorf("path %s, want /api/chat", p)
	}
}

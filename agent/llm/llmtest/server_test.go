package llmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/genai"
)

// recTB records the errors a server reports instead of failing the test.
type recTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recTB) errors() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestGeminiUnary(t *testing.T) {
	s := NewGeminiServer(t, Say("Hello", " there").WithUsage(7, 2))
	c, err := genai.NewClient(t.Context(), &genai.ClientConfig{
		APIKey: "k", Backend: genai.BackendGeminiAPI, HTTPOptions: genai.HTTPOptions{BaseURL: s.URL},
	})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Models.GenerateContent(t.Context(), "gemini-x", genai.Text("hi"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text() != "Hello there" || resp.UsageMetadata.PromptTokenCount != 7 {
		t.Errorf("text %q usage %+v", resp.Text(), resp.UsageMetadata)
	}
	r := s.Requests()[0]
	if r.Stream || r.Model != "gemini-x" || r.LastUser() != "hi" {
		t.Errorf("request = %+v", r)
	}
}

// TestOpenAIUnary: a request that does not stream gets one
// chat.completion object.
func TestOpenAIUnary(t *testing.T) {
	s := NewOpenAIServer(t, Say("Hello"))
	code, out := post(t, s.URL+"/chat/completions", `{"model":"m","messages":[{"role":"system","content":"sys"},{"role":"user","content":"hi"}]}`)
	var resp struct {
		Object  string `json:"object"`
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil || code != 200 {
		t.Fatalf("%d %s: %v", code, out, err)
	}
	if resp.Object != "chat.completion" || resp.Choices[0].Message.Content != "Hello" || resp.Choices[0].FinishReason != "stop" {
		t.Errorf("resp = %s", out)
	}
	if r := s.Requests()[0]; r.System != "sys" || r.Stream {
		t.Errorf("request = %+v", r)
	}
}

// TestAnthropicUnary: a request that does not stream gets one message
// object, its stop reason in the API's words.
func TestAnthropicUnary(t *testing.T) {
	s := NewAnthropicServer(t, Say("Hello").WithFinish("length"))
	code, out := post(t, s.URL+"/v1/messages", `{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`)
	var resp struct {
		Type    string `json:"type"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		StopReason string `json:"stop_reason"`
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil || code != 200 {
		t.Fatalf("%d %s: %v", code, out, err)
	}
	if resp.Type != "message" || resp.Content[0].Text != "Hello" || resp.StopReason != "max_tokens" {
		t.Errorf("resp = %s", out)
	}
}

func TestScriptExhausted(t *testing.T) {
	rt := &recTB{TB: t}
	s := NewOpenAIServer(rt, Say("one"))
	body := `{"model":"m","messages":[{"role":"user","content":"hi"}]}`
	if code, _ := post(t, s.URL+"/chat/completions", body); code != 200 {
		t.Fatalf("first request: status %d", code)
	}
	code, out := post(t, s.URL+"/chat/completions", body)
	if code != 500 || !strings.Contains(out, "no scripted answer") {
		t.Errorf("second request: %d %s", code, out)
	}
	if errs := rt.errors(); len(errs) != 1 || !strings.Contains(errs[0], "request 2 has no scripted answer") {
		t.Errorf("errors = %q", errs)
	}
	if s.Remaining() != 0 || len(s.Requests()) != 2 {
		t.Errorf("remaining %d, requests %d", s.Remaining(), len(s.Requests()))
	}
}

func TestUnknownPathAndBadBody(t *testing.T) {
	rt := &recTB{TB: t}
	s := NewGeminiServer(rt, Say("never"))
	if code, _ := post(t, s.Root+"/v1beta/files", "{}"); code != 404 {
		t.Errorf("unknown path: status %d", code)
	}
	six := `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"generationConfig":{"stopSequences":["a","b","c","d","e","f"]}}`
	if code, _ := post(t, s.Root+"/v1beta/models/m:generateContent", six); code != 400 {
		t.Errorf("six stop sequences: status %d", code)
	}
	errs := rt.errors()
	if len(errs) != 2 || !strings.Contains(errs[0], "unexpected request") || !strings.Contains(errs[1], "at most 5") {
		t.Errorf("errors = %q", errs)
	}
	if s.Remaining() != 1 {
		t.Errorf("a rejected request used an answer")
	}
}

func TestPush(t *testing.T) {
	s := NewAnthropicServer(t)
	s.Push(Say("late"))
	code, out := post(t, s.URL+"/v1/messages", `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`)
	if code != 200 || !strings.Contains(out, `"text":"late"`) {
		t.Errorf("%d %s", code, out)
	}
}

func TestFailHeaders(t *testing.T) {
	s := NewGeminiServer(t, Fail(429, "Retry-After", "3"))
	resp, err := http.Post(s.Root+"/v1beta/models/m:generateContent", "application/json",
		strings.NewReader(`{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" || !strings.Contains(string(b), "RESOURCE_EXHAUSTED") {
		t.Errorf("%d %v %s", resp.StatusCode, resp.Header, b)
	}
}

func TestCloseCutsWaits(t *testing.T) {
	s := NewOpenAIServer(t, Say("late").WithDelay(time.Hour))
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, s.URL+"/chat/completions",
			strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
		if resp, err := http.DefaultClient.Do(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	for len(s.Requests()) == 0 {
		time.Sleep(time.Millisecond)
	}
	s.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not cut the hour-long delay")
	}
}

// TestOllamaWindowLosesTheBeginning: the fake Ollama serves a request
// with the window num_ctx asks for, else its default of 4,096 tokens; a
// prompt beyond the window loses its beginning, and the model, without
// its instructions, answers without a call. The model stays loaded with
// the window of the last request, as /api/ps says.
func TestOllamaWindowLosesTheBeginning(t *testing.T) {
	s := NewOllamaServer(t, []OllamaModel{{Name: "llama3.2:latest", Max: 131072}}, Say("<tool_call>"), Say("<tool_call>"), Say("<tool_call>"))
	big := strings.Repeat("word ", 4000) // 5,000 tokens as the budget counts them
	body := func(numCtx string) string {
		return `{"model":"llama3.2","messages":[{"role":"system","content":"` + big + `"},{"role":"user","content":"hi"}]` + numCtx + `}`
	}
	_, out := post(t, s.URL+"/api/chat", body(""))
	if !strings.Contains(out, "I do not know") {
		t.Errorf("an overflowing prompt was answered as if whole: %s", out)
	}
	_, out = post(t, s.URL+"/api/chat", body(`,"options":{"num_ctx":8192}`))
	if !strings.Contains(out, `\u003ctool_call\u003e`) || !strings.Contains(out, `"prompt_eval_count":5009`) {
		t.Errorf("a prompt within num_ctx was not answered from the script: %s", out)
	}
	reqs := s.Requests()
	if reqs[0].Window != 4096 || reqs[0].Lost != reqs[0].Tokens-4096 || reqs[1].Window != 8192 || reqs[1].Lost != 0 || reqs[1].NumCtx != 8192 {
		t.Errorf("windows %d/%d lost %d/%d, want 4096 losing the excess, then 8192 losing nothing", reqs[0].Window, reqs[1].Window, reqs[0].Lost, reqs[1].Lost)
	}
	if m := s.Models()[0]; m.Loaded != 8192 {
		t.Errorf("loaded with %d, want 8192", m.Loaded)
	}
	// The OpenAI-compatible endpoint cannot ask for a window.
	code, _ := post(t, s.URL+"/v1/chat/completions", `{"model":"llama3.2","stream":true,"messages":[{"role":"system","content":"`+big+`"},{"role":"user","content":"hi"}]}`)
	if r := s.Requests()[2]; code != 200 || r.Window != 4096 || r.Lost == 0 {
		t.Errorf("/v1: status %d, window %d, lost %d; want the default window and the beginning lost", code, r.Window, r.Lost)
	}
	if code, out := post(t, s.URL+"/api/chat", `{"model":"mistral","messages":[{"role":"user","content":"hi"}]}`); code != 404 || !strings.Contains(out, "try pulling it first") {
		t.Errorf("a missing model: %d %s", code, out)
	}
}

// TestLlamaCppWindow: /props says the window, and a prompt beyond it
// loses its beginning.
func TestLlamaCppWindow(t *testing.T) {
	s := NewLlamaCppServer(t, 4096, Say("ok"))
	resp, err := http.Get(s.Root + "/props")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"n_ctx":4096`) {
		t.Errorf("/props = %s", b)
	}
	post(t, s.URL+"/chat/completions", `{"model":"x","messages":[{"role":"user","content":"`+strings.Repeat("word ", 4000)+`"}]}`)
	if r := s.Requests()[0]; r.Window != 4096 || r.Lost == 0 {
		t.Errorf("window %d lost %d, want 4096 and the beginning lost", r.Window, r.Lost)
	}
}

// TestHoldKeepsTheAnswerBack: a held answer comes only once its hold is
// closed; the request is recorded meanwhile.
func TestHoldKeepsTheAnswerBack(t *testing.T) {
	hold := make(chan struct{})
	s := NewOpenAIServer(t, Say("held").WithHold(hold))
	got := make(chan string, 1)
	go func() {
		resp, err := http.Post(s.URL+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
		if err != nil {
			got <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		got <- string(b)
	}()
	for len(s.Requests()) == 0 {
		time.Sleep(time.Millisecond)
	}
	select {
	case b := <-got:
		t.Fatalf("the held answer came before its hold was closed: %s", b)
	default:
	}
	close(hold)
	if b := <-got; !strings.Contains(b, "held") {
		t.Errorf("answer after the hold: %s", b)
	}
}

package openai

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/internal/secretval"
)

// TestStreamsAsServersSendThem: keep-alive comments between the events
// (OpenRouter), a stream that ends after its usage without [DONE], and
// thoughts in "reasoning" rather than "reasoning_content" are all read.
func TestStreamsAsServersSendThem(t *testing.T) {
	a := llmtest.Say("Hel", "lo").WithThoughts("think ", "more").WithUsage(30, 4).
		WithKeepAlive().WithoutEndMarker().WithReasoningField("reasoning")
	a.Usage.CachedTokens = 16
	s := llmtest.NewOpenAIServer(t, a)
	var text, thoughts string
	var usage *llm.Usage
	finish := ""
	for c, err := range newTestModel(t, s, llm.Policy{}).Stream(t.Context(), hi) {
		if err != nil {
			t.Fatal(err)
		}
		text, thoughts = text+c.Text, thoughts+c.Thought
		if c.Usage != nil {
			usage, finish = c.Usage, c.Finish
		}
	}
	if text != "Hello" || thoughts != "think more" || finish != "stop" {
		t.Errorf("text %q, thoughts %q, finish %q; want Hello, think more, stop", text, thoughts, finish)
	}
	if usage == nil || *usage != (llm.Usage{InputTokens: 30, OutputTokens: 4, CachedTokens: 16}) {
		t.Errorf("usage %+v, want 30 in (16 cached), 4 out", usage)
	}
}

// TestErrorBodies: every shape of error answer the compatible servers
// send is worded from its message, with the key it echoes redacted.
func TestErrorBodies(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
	}{
		{"openai", `{"error":{"message":"Incorrect API key provided: llmtest-key.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			"Incorrect API key provided: [redacted]."},
		{"openrouter", `{"error":{"code":400,"message":"Provider returned error","metadata":{"raw":"{\"detail\":\"bad key llmtest-key\"}","provider_name":"Venice"}}}`,
			`Provider returned error (Venice: {"detail":"bad key [redacted]"})`},
		{"error string", `{"error":"model 'm' not found, key llmtest-key"}`, "model 'm' not found, key [redacted]"},
		{"vllm", `{"object":"error","message":"The model m does not exist.","type":"NotFoundError","param":null,"code":404}`, "The model m does not exist."},
		{"fastapi", `{"detail":"Not authenticated"}`, "Not authenticated"},
		{"bare string", `"llmtest-key is not allowed"`, "[redacted] is not allowed"},
		{"plain text", "upstream connect error or disconnect/reset before headers", "upstream connect error or disconnect/reset before headers"},
		{"unknown json", `{"status":"bad"}`, `{"status":"bad"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := llmtest.NewOpenAIServer(t, llmtest.Raw(400, tc.body))
			pol := llm.Policy{Secrets: secretval.Set{"llmtest-key"}}
			_, _, _, err := llmtest.Collect(newTestModel(t, s, pol).Stream(t.Context(), hi))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.KindRequest || e.Status != 400 {
				t.Fatalf("err = %v, want a 400 request error", err)
			}
			if !strings.Contains(err.Error(), "(400: "+tc.want+")") || strings.Contains(err.Error(), "llmtest-key") {
				t.Errorf("err = %q, want the message %q", err, tc.want)
			}
		})
	}
}

// TestRetryAfterMs: a 429 with retry-after-ms (OpenAI's header) is waited
// out as asked, before Retry-After.
func TestRetryAfterMs(t *testing.T) {
	s := llmtest.NewOpenAIServer(t, llmtest.Fail(429, "Retry-After-Ms", "1500", "Retry-After", "2"), llmtest.Say("ok"))
	var sl llmtest.Sleeps
	text, _, _, err := llmtest.Collect(newTestModel(t, s, llm.Policy{Sleep: sl.Sleep}).Stream(t.Context(), hi))
	if err != nil || text != "ok" {
		t.Fatalf("got %q, %v", text, err)
	}
	if w := sl.Waits(); len(w) != 1 || w[0] != 1500*time.Millisecond {
		t.Errorf("waits %v, want [1.5s]", w)
	}
}

// TestOpenRouterErrorInStream: OpenRouter reports a provider failing
// mid-stream as a chunk with an error and finish_reason "error"; before
// any text it is asked again, after text it is a drop.
func TestOpenRouterErrorInStream(t *testing.T) {
	ev := "data: {\"id\":\"gen-1\",\"object\":\"chat.completion.chunk\",\"error\":{\"code\":\"server_error\",\"message\":\"Provider disconnected unexpectedly\"}," +
		"\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"error\"}]}\n\n"
	s := llmtest.NewOpenAIServer(t, llmtest.Raw(200, ": OPENROUTER PROCESSING\n\n"+ev), llmtest.Say("ok"))
	var sl llmtest.Sleeps
	var notices []llm.RetryNotice
	ctx := llm.WithRetryNotify(t.Context(), func(n llm.RetryNotice) { notices = append(notices, n) })
	text, _, _, err := llmtest.Collect(newTestModel(t, s, llm.Policy{Sleep: sl.Sleep}).Stream(ctx, hi))
	if err != nil || text != "ok" {
		t.Fatalf("got %q, %v; want ok after a retry", text, err)
	}
	if len(notices) != 1 || notices[0].Err.Kind != llm.KindServer || !strings.Contains(notices[0].Err.Message, "Provider disconnected") {
		t.Errorf("notices %+v, want one server error with the provider's words", notices)
	}
}

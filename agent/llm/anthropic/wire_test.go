package anthropic

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/internal/secretval"
)

// TestVersionHeader: every request names the API version its body and
// events are written for.
func TestVersionHeader(t *testing.T) {
	s := llmtest.NewAnthropicServer(t, llmtest.Say("ok"))
	if _, _, _, err := llmtest.Collect(newTestModel(t, s, llm.Policy{}).Stream(t.Context(), hi)); err != nil {
		t.Fatal(err)
	}
	r := s.Requests()[0]
	if got := r.Header.Get("Anthropic-Version"); got != APIVersion {
		t.Errorf("anthropic-version = %q, want %q", got, APIVersion)
	}
	if r.Path != "/v1/messages" || !r.Stream {
		t.Errorf("%s, stream %v; want a streamed /v1/messages", r.Path, r.Stream)
	}
}

// TestStreamsAsServersSendThem: keep-alive comments between the events
// and a stream that ends without message_stop are read; thinking with its
// signature_delta stays apart from the text.
func TestStreamsAsServersSendThem(t *testing.T) {
	a := llmtest.Say("Hel", "lo").WithThoughts("think").WithUsage(40, 5).WithCache(30, 0).WithKeepAlive().WithoutEndMarker()
	s := llmtest.NewAnthropicServer(t, a)
	req := hi
	req.Reasoning = llm.ReasoningLow
	var text, thoughts string
	var usage *llm.Usage
	for c, err := range newTestModel(t, s, llm.Policy{}).Stream(t.Context(), req) {
		if err != nil {
			t.Fatal(err)
		}
		text, thoughts = text+c.Text, thoughts+c.Thought
		if c.Usage != nil {
			usage = c.Usage
		}
	}
	if text != "Hello" || thoughts != "think" {
		t.Errorf("text %q, thoughts %q", text, thoughts)
	}
	if usage == nil || *usage != (llm.Usage{InputTokens: 40, OutputTokens: 5, CachedTokens: 30}) {
		t.Errorf("usage %+v, want 40 in (30 read from the cache), 5 out", usage)
	}
}

// TestUsageInMessageDelta: the API's newer versions repeat the input
// counts in message_delta; the last counts are the reply's.
func TestUsageInMessageDelta(t *testing.T) {
	body := strings.Join([]string{
		"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-test\"," +
			"\"stop_reason\":null,\"usage\":{\"input_tokens\":0,\"output_tokens\":1}}}\n",
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n",
		"event: ping\ndata: {\"type\": \"ping\"}\n",
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ok\"}}\n",
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n",
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\",\"stop_sequence\":null}," +
			"\"usage\":{\"input_tokens\":12,\"cache_creation_input_tokens\":2000,\"cache_read_input_tokens\":0,\"output_tokens\":7}}\n",
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n",
	}, "\n") + "\n"
	s := llmtest.NewAnthropicServer(t, llmtest.Raw(200, body))
	text, usage, finish, err := llmtest.Collect(newTestModel(t, s, llm.Policy{}).Stream(t.Context(), hi))
	if err != nil || text != "ok" || finish != "length" {
		t.Fatalf("got %q finish %q, %v", text, finish, err)
	}
	if want := (llm.Usage{InputTokens: 2012, OutputTokens: 7, CacheWriteTokens: 2000}); usage == nil || *usage != want {
		t.Errorf("usage %+v, want %+v", usage, want)
	}
}

// TestOverloadedAfterText: an overloaded_error event after text is a
// drop, not a retry: the reply was seen.
func TestOverloadedAfterText(t *testing.T) {
	ev := llmtest.Say("half of it").WithFault(llmtest.FaultErrorEvent)
	ev.Status, ev.Message = 529, "Overloaded"
	s := llmtest.NewAnthropicServer(t, ev, llmtest.Say("never"))
	text, _, _, err := llmtest.Collect(newTestModel(t, s, llm.Policy{}).Stream(t.Context(), hi))
	if text != "half of it" || !errors.Is(err, llm.ErrStreamDropped) || !strings.Contains(err.Error(), "Overloaded") {
		t.Errorf("got %q, %v; want the text and a drop naming the overload", text, err)
	}
}

// TestErrorAnswers: the API's error body is worded from its message,
// with an echoed key redacted; 429 waits as retry-after-ms asks, and 529
// (overloaded) is retried.
func TestErrorAnswers(t *testing.T) {
	bad := llmtest.Raw(400, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too large for key llmtest-key"},"request_id":"req_1"}`)
	s := llmtest.NewAnthropicServer(t, bad)
	pol := llm.Policy{Secrets: secretval.Set{"llmtest-key"}}
	_, _, _, err := llmtest.Collect(newTestModel(t, s, pol).Stream(t.Context(), hi))
	if err == nil || !strings.Contains(err.Error(), "(400: max_tokens: too large for key [redacted])") {
		t.Errorf("err = %v, want the message, the key redacted", err)
	}

	slow := llmtest.Fail(429, "retry-after-ms", "250")
	s = llmtest.NewAnthropicServer(t, slow, llmtest.Fail(529), llmtest.Say("ok"))
	var sl llmtest.Sleeps
	text, _, _, err := llmtest.Collect(newTestModel(t, s, llm.Policy{Sleep: sl.Sleep}).Stream(t.Context(), hi))
	if err != nil || text != "ok" {
		t.Fatalf("got %q, %v", text, err)
	}
	if w := sl.Waits(); len(w) != 2 || w[0] != 250*time.Millisecond {
		t.Errorf("waits %v, want 250ms as asked, then a backoff", w)
	}
}

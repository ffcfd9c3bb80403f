package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm"
)

// NewAnthropicServer starts a fake Anthropic Messages API (POST
// /v1/messages, streamed as server-sent events or not) that plays answers
// in order. Hand s.URL to the client as the base URL, or to the agent as
// ANTHROPIC_BASE_URL (see Env).
func NewAnthropicServer(t testing.TB, answers ...Answer) *Server {
	t.Helper()
	return newServer(t, anthropicProtocol{}, answers)
}

type anthropicProtocol struct{}

func (anthropicProtocol) name() string     { return "anthropic" }
func (anthropicProtocol) basePath() string { return "" }

func (anthropicProtocol) env(s *Server) []string {
	return []string{"ANTHROPIC_BASE_URL=" + s.URL, "ANTHROPIC_API_KEY=llmtest-key"}
}

func (anthropicProtocol) match(r *http.Request) (bool, bool) {
	return r.Method == http.MethodPost && r.URL.Path == "/v1/messages", false
}

// anthropicText reads a content or system field: a string, or an array of
// text blocks.
func anthropicText(raw json.RawMessage) (string, error) {
	text, imgs, err := anthropicContent(raw)
	if err == nil && len(imgs) > 0 {
		err = fmt.Errorf("images are only allowed in user messages")
	}
	return text, err
}

// anthropicMaxImage is the most base64 an image block may carry, and
// anthropicMaxEdge the longest side the API takes.
const (
	anthropicMaxImage = 5 << 20
	anthropicMaxEdge  = 8000
)

// anthropicContent reads a content field: a string, or text and image
// blocks (an image with a base64 source).
func anthropicContent(raw json.RawMessage) (string, []llm.Image, error) {
	var s string
	if len(raw) == 0 || string(raw) == "null" || json.Unmarshal(raw, &s) == nil {
		return s, nil, nil
	}
	var blocks []struct {
		Type   string `json:"type"`
		Text   string `json:"text"`
		Source *struct {
			Type      string `json:"type"`
			MediaType string `json:"media_type"`
			Data      string `json:"data"`
		} `json:"source"`
	}
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", nil, fmt.Errorf("content is neither a string nor blocks: %w", err)
	}
	var b strings.Builder
	var imgs []llm.Image
	for _, bl := range blocks {
		switch bl.Type {
		case "text":
			b.WriteString(bl.Text)
		case "image":
			if bl.Source == nil || bl.Source.Type != "base64" {
				return "", nil, fmt.Errorf("image block: source.type must be base64 here")
			}
			if len(bl.Source.Data) > anthropicMaxImage {
				return "", nil, fmt.Errorf("image exceeds 5 MB maximum: %d bytes > %d bytes", len(bl.Source.Data), anthropicMaxImage)
			}
			img, err := decodeImage(bl.Source.MediaType, bl.Source.Data, "image/jpeg", "image/png", "image/gif", "image/webp")
			if err != nil {
				return "", nil, err
			}
			if img.Width > anthropicMaxEdge || img.Height > anthropicMaxEdge {
				return "", nil, fmt.Errorf("image dimensions exceed max allowed size: %d pixels", anthropicMaxEdge)
			}
			imgs = append(imgs, img)
		default:
			return "", nil, fmt.Errorf("content block type %q is not supported", bl.Type)
		}
	}
	return b.String(), imgs, nil
}

// cacheMarks counts the blocks of a content or system field that carry
// cache_control, checking each is {"type": "ephemeral"} (with an optional
// ttl) as the API demands.
func cacheMarks(raw json.RawMessage) (int, error) {
	var blocks []struct {
		CacheControl *struct {
			Type string `json:"type"`
			TTL  string `json:"ttl"`
		} `json:"cache_control"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return 0, nil // a plain string has no blocks to mark
	}
	n := 0
	for _, b := range blocks {
		if b.CacheControl == nil {
			continue
		}
		if b.CacheControl.Type != "ephemeral" {
			return 0, fmt.Errorf("cache_control.type %q: only ephemeral exists", b.CacheControl.Type)
		}
		n++
	}
	return n, nil
}

func (anthropicProtocol) decode(body []byte, req *Request) error {
	var in struct {
		Model     string          `json:"model"`
		MaxTokens int             `json:"max_tokens"`
		System    json.RawMessage `json:"system"`
		Messages  []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		StopSequences []string `json:"stop_sequences"`
		Stream        bool     `json:"stream"`
		Thinking      *struct {
			Type         string `json:"type"`
			BudgetTokens int    `json:"budget_tokens"`
		} `json:"thinking"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return err
	}
	req.Model, req.MaxTokens, req.Stop, req.Stream = in.Model, in.MaxTokens, in.StopSequences, in.Stream
	if req.Model == "" || req.MaxTokens <= 0 {
		return fmt.Errorf("model and a positive max_tokens are required")
	}
	req.ThinkingBudget = -1
	if t := in.Thinking; t != nil && t.Type == "enabled" {
		if t.BudgetTokens < 1024 || t.BudgetTokens >= req.MaxTokens {
			return fmt.Errorf("thinking.budget_tokens %d: must be at least 1024 and less than max_tokens (%d)", t.BudgetTokens, req.MaxTokens)
		}
		req.ThinkingBudget = t.BudgetTokens
	}
	if n, err := cacheMarks(in.System); err != nil {
		return fmt.Errorf("system: %w", err)
	} else if n > 0 {
		req.CacheBreakpoints = append(req.CacheBreakpoints, "system")
	}
	for i, m := range in.Messages {
		n, err := cacheMarks(m.Content)
		if err != nil {
			return fmt.Errorf("messages[%d]: %w", i, err)
		}
		for range n {
			req.CacheBreakpoints = append(req.CacheBreakpoints, fmt.Sprintf("messages[%d]", i))
		}
	}
	if len(req.CacheBreakpoints) > 4 {
		return fmt.Errorf("%d blocks with cache_control; a maximum of 4 is allowed", len(req.CacheBreakpoints))
	}
	sys, err := anthropicText(in.System)
	if err != nil {
		return fmt.Errorf("system: %w", err)
	}
	req.System = sys
	for _, m := range in.Messages {
		text, imgs, err := anthropicContent(m.Content)
		if err != nil {
			return err
		}
		switch m.Role {
		case "user":
			req.Messages = append(req.Messages, llm.Message{Role: llm.User, Text: text, Images: imgs})
		case "assistant":
			if len(imgs) > 0 {
				return fmt.Errorf("images are only allowed in user messages")
			}
			req.Messages = append(req.Messages, llm.Message{Role: llm.Assistant, Text: text})
		default:
			return fmt.Errorf("unexpected message role %q", m.Role)
		}
	}
	if len(req.Messages) == 0 || req.Messages[0].Role != llm.User {
		return fmt.Errorf("messages must start with a user message")
	}
	return nil
}

func (anthropicProtocol) errorType(status int) string {
	switch {
	case status == 400:
		return "invalid_request_error"
	case status == 401:
		return "authentication_error"
	case status == 403:
		return "permission_error"
	case status == 404:
		return "not_found_error"
	case status == 429:
		return "rate_limit_error"
	case status == 529:
		return "overloaded_error"
	}
	return "api_error"
}

func (p anthropicProtocol) errorBody(status int, msg string) string {
	return mustJSON(map[string]any{"type": "error", "error": map[string]any{"type": p.errorType(status), "message": msg}})
}

func (p anthropicProtocol) errorEvent(status int, msg string) string {
	return sse("error", p.errorBody(status, msg))
}

func (anthropicProtocol) malformed() string {
	return sse("content_block_delta", `{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "unterminated`)
}

// stop is the stop_reason and stop_sequence for the answer.
func (anthropicProtocol) stop(req Request, a Answer) (string, any) {
	switch a.finish() {
	case "length":
		return "max_tokens", nil
	case "stop_sequence":
		if s := stopHit(req); s != "" {
			return "stop_sequence", s
		}
	}
	return "end_turn", nil
}

func (p anthropicProtocol) unary(req Request, a Answer) string {
	reason, seq := p.stop(req, a)
	u := a.usage()
	return mustJSON(map[string]any{
		"id": "msg_llmtest", "type": "message", "role": "assistant", "model": req.Model,
		"content":     []any{map[string]any{"type": "text", "text": a.text()}},
		"stop_reason": reason, "stop_sequence": seq,
		"usage": anthropicUsage(u, u.OutputTokens),
	})
}

// anthropicUsage is the usage object: input_tokens counts only what was
// neither read from nor written to the cache, as the API reports it.
func anthropicUsage(u llm.Usage, out int) map[string]any {
	return map[string]any{
		"input_tokens":                max(0, u.InputTokens-u.CachedTokens-u.CacheWriteTokens),
		"output_tokens":               out,
		"cache_read_input_tokens":     u.CachedTokens,
		"cache_creation_input_tokens": u.CacheWriteTokens,
	}
}

// textIndex is the index of the text block: 1 after a thinking block.
func textIndex(a Answer) int {
	if len(a.Thoughts) > 0 {
		return 1
	}
	return 0
}

func (anthropicProtocol) streamStart(req Request, a Answer) []string {
	u := a.usage()
	evs := []string{
		sse("message_start", mustJSON(map[string]any{"type": "message_start", "message": map[string]any{
			"id": "msg_llmtest", "type": "message", "role": "assistant", "model": req.Model,
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
			"usage": anthropicUsage(u, 1),
		}})),
	}
	if len(a.Thoughts) > 0 {
		evs = append(evs, sse("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`))
		for _, t := range a.Thoughts {
			evs = append(evs, sse("content_block_delta", mustJSON(map[string]any{
				"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "thinking_delta", "thinking": t},
			})))
		}
		evs = append(evs,
			sse("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"bGxtdGVzdA=="}}`),
			sse("content_block_stop", `{"type":"content_block_stop","index":0}`))
	}
	return append(evs,
		sse("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, textIndex(a))),
		sse("ping", `{"type": "ping"}`),
	)
}

func (anthropicProtocol) streamChunk(_ Request, a Answer, _ int, text string) string {
	return sse("content_block_delta", mustJSON(map[string]any{
		"type": "content_block_delta", "index": textIndex(a), "delta": map[string]any{"type": "text_delta", "text": text},
	}))
}

func (p anthropicProtocol) streamEnd(req Request, a Answer) []string {
	reason, seq := p.stop(req, a)
	evs := []string{
		sse("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, textIndex(a))),
		sse("message_delta", mustJSON(map[string]any{
			"type":  "message_delta",
			"delta": map[string]any{"stop_reason": reason, "stop_sequence": seq},
			"usage": map[string]any{"output_tokens": a.usage().OutputTokens},
		})),
	}
	if a.NoEndMarker {
		return evs
	}
	return append(evs, sse("message_stop", `{"type":"message_stop"}`))
}

// comment is a keep-alive line (the API itself sends ping events,
// which every stream of this fake has; a proxy may add comments).
func (anthropicProtocol) comment() string { return ": keep-alive\n\n" }

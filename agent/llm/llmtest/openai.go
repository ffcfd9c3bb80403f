package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm"
)

// NewOpenAIServer starts a fake OpenAI-compatible API (POST
// /v1/chat/completions, streamed as server-sent events or not) that plays
// answers in order. s.URL ends in /v1: hand it to the client as the base URL,
// or to the agent as OPENAI_BASE_URL (see Env).
func NewOpenAIServer(t testing.TB, answers ...Answer) *Server {
	t.Helper()
	return newServer(t, openaiProtocol{}, answers)
}

type openaiProtocol struct{}

func (openaiProtocol) name() string     { return "openai" }
func (openaiProtocol) basePath() string { return "/v1" }

func (openaiProtocol) env(s *Server) []string {
	return []string{"OPENAI_BASE_URL=" + s.URL, "OPENAI_API_KEY=llmtest-key"}
}

func (openaiProtocol) match(r *http.Request) (bool, bool) {
	return r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions", false
}

// openaiText reads a content field: a string, or an array of text parts.
func openaiText(raw json.RawMessage) (string, error) {
	text, imgs, err := openaiContent(raw)
	if err == nil && len(imgs) > 0 {
		err = fmt.Errorf("images are only allowed in user messages")
	}
	return text, err
}

// openaiContent reads a message's content: a string, or parts of text
// and images (image_url with a data URL, as the agent sends them).
func openaiContent(raw json.RawMessage) (string, []llm.Image, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil, nil
	}
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL *struct {
			URL    string `json:"url"`
			Detail string `json:"detail"`
		} `json:"image_url"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", nil, fmt.Errorf("content is neither a string nor content parts: %w", err)
	}
	var b strings.Builder
	var imgs []llm.Image
	for _, p := range parts {
		switch p.Type {
		case "text":
			b.WriteString(p.Text)
		case "image_url":
			if p.ImageURL == nil {
				return "", nil, fmt.Errorf("an image_url part without image_url")
			}
			switch p.ImageURL.Detail {
			case "", "auto", "low", "high", "original":
			default:
				return "", nil, fmt.Errorf("image_url.detail %q is not one of auto, low, high, original", p.ImageURL.Detail)
			}
			head, data, ok := strings.Cut(p.ImageURL.URL, ";base64,")
			mime, isData := strings.CutPrefix(head, "data:")
			if !ok || !isData {
				return "", nil, fmt.Errorf("image_url.url is not a base64 data URL")
			}
			img, err := decodeImage(mime, data, "image/png", "image/jpeg", "image/webp", "image/gif")
			if err != nil {
				return "", nil, err
			}
			imgs = append(imgs, img)
		default:
			return "", nil, fmt.Errorf("content part type %q is not supported", p.Type)
		}
	}
	return b.String(), imgs, nil
}

func (openaiProtocol) decode(body []byte, req *Request) error {
	var in struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Stop                json.RawMessage `json:"stop"`
		MaxTokens           int             `json:"max_tokens"`
		MaxCompletionTokens int             `json:"max_completion_tokens"`
		Stream              bool            `json:"stream"`
		ReasoningEffort     string          `json:"reasoning_effort"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return err
	}
	switch in.ReasoningEffort {
	case "", "none", "minimal", "low", "medium", "high", "xhigh":
	default:
		return fmt.Errorf("reasoning_effort %q is not a supported value", in.ReasoningEffort)
	}
	req.Model, req.Stream, req.ReasoningEffort, req.ThinkingBudget = in.Model, in.Stream, in.ReasoningEffort, -1
	req.MaxTokens = max(in.MaxTokens, in.MaxCompletionTokens)
	if req.Model == "" {
		return fmt.Errorf("model is missing")
	}
	for _, m := range in.Messages {
		if m.Role == "user" {
			text, imgs, err := openaiContent(m.Content)
			if err != nil {
				return err
			}
			req.Messages = append(req.Messages, llm.Message{Role: llm.User, Text: text, Images: imgs})
			continue
		}
		text, err := openaiText(m.Content)
		if err != nil {
			return err
		}
		switch m.Role {
		case "system", "developer":
			req.System += text
		case "assistant":
			req.Messages = append(req.Messages, llm.Message{Role: llm.Assistant, Text: text})
		default:
			return fmt.Errorf("unexpected message role %q", m.Role)
		}
	}
	if len(req.Messages) == 0 {
		return fmt.Errorf("messages is empty")
	}
	if len(in.Stop) > 0 && string(in.Stop) != "null" {
		var one string
		if json.Unmarshal(in.Stop, &one) == nil {
			req.Stop = []string{one}
		} else if err := json.Unmarshal(in.Stop, &req.Stop); err != nil {
			return fmt.Errorf("stop: %w", err)
		}
	}
	if len(req.Stop) > 4 {
		return fmt.Errorf("%d stop sequences; the API allows at most 4", len(req.Stop))
	}
	return nil
}

func (openaiProtocol) errorBody(status int, msg string) string {
	typ, code := "invalid_request_error", any(nil)
	switch {
	case status == 401:
		code = "invalid_api_key"
	case status == 429:
		typ, code = "requests", "rate_limit_exceeded"
	case status >= 500:
		typ = "server_error"
	}
	return mustJSON(map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}})
}

func (p openaiProtocol) errorEvent(status int, msg string) string {
	return sse("", p.errorBody(status, msg))
}

func (openaiProtocol) malformed() string {
	return sse("", `{"id": "chatcmpl-llmtest", "choices": [{"delta": {"content": "unterminated`)
}

func (openaiProtocol) finishReason(a Answer) string {
	if a.finish() == "length" {
		return "length"
	}
	return "stop" // OpenAI says "stop" for stop sequences too
}

func (openaiProtocol) usage(a Answer) map[string]any {
	u := a.usage()
	return map[string]any{
		"prompt_tokens":             u.InputTokens,
		"completion_tokens":         u.OutputTokens,
		"total_tokens":              u.InputTokens + u.OutputTokens,
		"prompt_tokens_details":     map[string]any{"cached_tokens": u.CachedTokens},
		"completion_tokens_details": map[string]any{"reasoning_tokens": u.ThinkingTokens},
	}
}

func (p openaiProtocol) unary(req Request, a Answer) string {
	return mustJSON(map[string]any{
		"id": "chatcmpl-llmtest", "object": "chat.completion", "created": 1700000000, "model": req.Model,
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": a.text()},
			"finish_reason": p.finishReason(a),
		}},
		"usage": p.usage(a),
	})
}

func (openaiProtocol) chunk(req Request, choices []any, usage any) string {
	return sse("", mustJSON(map[string]any{
		"id": "chatcmpl-llmtest", "object": "chat.completion.chunk", "created": 1700000000,
		"model": req.Model, "choices": choices, "usage": usage,
	}))
}

// streamStart sends the thoughts as reasoning_content deltas, the way
// DeepSeek, vLLM and llama.cpp send them (OpenAI itself sends none), or
// in the field the answer names (ReasoningField).
func (p openaiProtocol) streamStart(req Request, a Answer) []string {
	field := a.ReasoningField
	if field == "" {
		field = "reasoning_content"
	}
	var evs []string
	for _, t := range a.Thoughts {
		delta := map[string]any{"role": "assistant", "content": "", field: t}
		evs = append(evs, p.chunk(req, []any{map[string]any{"index": 0, "delta": delta, "finish_reason": nil}}, nil))
	}
	return evs
}

func (p openaiProtocol) streamChunk(req Request, _ Answer, i int, text string) string {
	delta := map[string]any{"content": text}
	if i == 0 {
		delta["role"] = "assistant"
	}
	return p.chunk(req, []any{map[string]any{"index": 0, "delta": delta, "finish_reason": nil}}, nil)
}

// streamEnd sends the finish reason, then the usage on a chunk without
// choices (as OpenAI does when stream_options.include_usage is set; sent
// always here, as many compatible servers do), then [DONE] (unless
// NoEndMarker).
func (p openaiProtocol) streamEnd(req Request, a Answer) []string {
	evs := []string{
		p.chunk(req, []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": p.finishReason(a)}}, nil),
		p.chunk(req, []any{}, p.usage(a)),
	}
	if a.NoEndMarker {
		return evs
	}
	return append(evs, sse("", "[DONE]"))
}

// comment is OpenRouter's keep-alive line.
func (openaiProtocol) comment() string { return ": OPENROUTER PROCESSING\n\n" }

package openai

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/agentcli/agent/agent/llm"
)

// chatRequest is the body of POST /chat/completions.
type chatRequest struct {
	Model               string         `json:"model"`
	Messages            []chatMessage  `json:"messages"`
	Stream              bool           `json:"stream"`
	StreamOptions       *streamOptions `json:"stream_options,omitempty"`
	Stop                []string       `json:"stop,omitempty"`
	ReasoningEffort     string         `json:"reasoning_effort,omitempty"`
	MaxTokens           int            `json:"max_tokens,omitempty"`
	MaxCompletionTokens int            `json:"max_completion_tokens,omitempty"`
}

// streamOptions asks for the usage in a last chunk of the stream.
type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// chatMessage is one message; Content is a string, or []contentPart for
// a user message with images.
type chatMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

// contentPart is a part of a message's content: text, or an image.
type contentPart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

// body is the request for req.
func (m *Model) body(req llm.Request) chatRequest {
	msgs := make([]chatMessage, 0, len(req.Messages)+1)
	if req.System != "" {
		msgs = append(msgs, chatMessage{Role: "system", Content: req.System})
	}
	for _, msg := range req.Messages {
		if msg.Role == llm.Assistant {
			msgs = append(msgs, chatMessage{Role: "assistant", Content: msg.Text})
		} else {
			msgs = append(msgs, chatMessage{Role: "user", Content: content(msg)})
		}
	}
	b := chatRequest{
		Model:         m.o.Model,
		Messages:      msgs,
		Stream:        true,
		StreamOptions: &streamOptions{IncludeUsage: true},
	}
	if len(req.Stop) > 0 && !m.noStop.Load() {
		// The loop's own cut-off covers any stop sequence beyond the limit.
		b.Stop = req.Stop[:min(len(req.Stop), MaxStop)]
	}
	switch req.Reasoning {
	case llm.ReasoningLow, llm.ReasoningMedium, llm.ReasoningHigh:
		b.ReasoningEffort = string(req.Reasoning)
	}
	// Off sends nothing: models that do not reason reject the field, and
	// the lowest effort differs between those that do ("minimal", "none").
	if req.MaxTokens > 0 {
		if m.o.MaxCompletionTokens {
			b.MaxCompletionTokens = req.MaxTokens
		} else {
			b.MaxTokens = req.MaxTokens
		}
	}
	return b
}

// streamChunk is one event of the stream, as far as it is read.
type streamChunk struct {
	Choices []struct {
		Delta struct {
			Content string `json:"content"`
			// Compatible servers send the reasoning beside the content,
			// under one name or the other: "reasoning_content" (DeepSeek,
			// vLLM, llama.cpp) or "reasoning" (OpenRouter, Ollama).
			// Either may be null, or (on some servers) not a string.
			ReasoningContent json.RawMessage `json:"reasoning_content"`
			Reasoning        json.RawMessage `json:"reasoning"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokensDetails struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		CompletionTokensDetails struct {
			ReasoningTokens int `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// delta is what one event brings: text, thoughts, the usage, the finish
// reason.
type delta struct {
	Text, Thought string
	Usage         *llm.Usage
	Finish        string
}

// decodeChunk reads one event's data. An error inside the stream (an
// "error" field, as OpenAI and OpenRouter send it) is an *llm.APIError.
func decodeChunk(data []byte) (delta, error) {
	var c streamChunk
	if err := json.Unmarshal(data, &c); err != nil {
		return delta{}, err
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return delta{}, streamError(c.Error)
	}
	var d delta
	if u := c.Usage; u != nil && (u.PromptTokens > 0 || u.CompletionTokens > 0) {
		d.Usage = &llm.Usage{
			InputTokens:    u.PromptTokens,
			OutputTokens:   u.CompletionTokens,
			CachedTokens:   u.PromptTokensDetails.CachedTokens,
			ThinkingTokens: u.CompletionTokensDetails.ReasoningTokens,
		}
	}
	if len(c.Choices) == 0 {
		return d, nil
	}
	ch := c.Choices[0]
	d.Text, d.Finish = ch.Delta.Content, ch.FinishReason
	d.Thought = text(ch.Delta.ReasoningContent)
	if d.Thought == "" {
		d.Thought = text(ch.Delta.Reasoning)
	}
	return d, nil
}

// text is raw's string, "" when it is not one.
func text(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// streamError turns an error inside a stream into an *llm.APIError.
// OpenAI sends no status with it; OpenRouter puts one in error.code. A
// failure without a status counts as the server's (500), so that it is
// retried when no text has been yielded yet.
func streamError(raw json.RawMessage) error {
	var e struct {
		Code    json.RawMessage `json:"code"`
		Message string          `json:"message"`
	}
	status := http.StatusInternalServerError
	msg := ""
	if json.Unmarshal(raw, &e) == nil {
		var code int
		if json.Unmarshal(e.Code, &code) == nil && code >= 400 && code <= 599 {
			status = code
		}
		msg = e.Message
	} else {
		msg = text(raw) // {"error": "..."}
	}
	if msg == "" {
		msg = fmt.Sprintf("error in the stream: %s", raw)
	}
	return &llm.APIError{Status: status, Message: msg}
}

package anthropic

import (
	"encoding/json"

	"github.com/agentcli/agent/agent/llm"
)

// messagesRequest is the body of POST /v1/messages.
type messagesRequest struct {
	Model         string      `json:"model"`
	MaxTokens     int         `json:"max_tokens"`
	System        []textBlock `json:"system,omitempty"`
	Messages      []message   `json:"messages"`
	StopSequences []string    `json:"stop_sequences,omitempty"`
	Stream        bool        `json:"stream"`
	Thinking      *thinking   `json:"thinking,omitempty"`
}

// message is one turn; its content is text and image blocks.
type message struct {
	Role    string `json:"role"`
	Content []any  `json:"content"`
}

type textBlock struct {
	Type         string        `json:"type"` // "text"
	Text         string        `json:"text"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

type imageBlock struct {
	Type         string        `json:"type"` // "image"
	Source       imageSource   `json:"source"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

type imageSource struct {
	Type      string `json:"type"` // "base64"
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

// cacheControl marks the end of a prefix to cache.
type cacheControl struct {
	Type string `json:"type"` // "ephemeral"
}

// thinking turns extended thinking on with a budget of tokens.
type thinking struct {
	Type         string `json:"type"` // "enabled"
	BudgetTokens int    `json:"budget_tokens"`
}

// body builds the request. Two cache breakpoints mark the stable prefix:
// the system prompt, and the end of the conversation so far (the next
// request finds this one's prefix in the cache and pays a tenth for it).
// Anthropic caches only what is marked.
func (m *Model) body(req llm.Request) messagesRequest {
	msgs := make([]message, 0, len(req.Messages))
	for i, msg := range req.Messages {
		bs := blocks(msg)
		if i == len(req.Messages)-1 {
			markCache(bs)
		}
		role := "user"
		if msg.Role == llm.Assistant {
			role = "assistant"
		}
		msgs = append(msgs, message{Role: role, Content: bs})
	}
	b := messagesRequest{
		Model:         m.model,
		MaxTokens:     DefaultMaxTokens,
		Messages:      msgs,
		StopSequences: req.Stop,
		Stream:        true,
	}
	if req.MaxTokens > 0 {
		b.MaxTokens = req.MaxTokens
	}
	if req.System != "" {
		b.System = []textBlock{{Type: "text", Text: req.System, CacheControl: ephemeral()}}
	}
	if budget := req.Reasoning.ThinkingBudget(); budget > 0 {
		// Extended thinking: the budget must stay under max_tokens, so
		// the reply keeps its own allowance on top.
		b.Thinking = &thinking{Type: "enabled", BudgetTokens: budget}
		b.MaxTokens += budget
	}
	return b
}

func ephemeral() *cacheControl { return &cacheControl{Type: "ephemeral"} }

// event is one event of the stream, as far as it is read.
type event struct {
	Type    string `json:"type"`
	Message struct {
		Usage usage `json:"usage"`
	} `json:"message"` // message_start
	Delta struct {
		Type       string `json:"type"` // text_delta, thinking_delta, signature_delta, ...
		Text       string `json:"text"`
		Thinking   string `json:"thinking"`
		StopReason string `json:"stop_reason"` // message_delta
	} `json:"delta"`
	Usage usage `json:"usage"` // message_delta
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// decodeEvent reads one event. An error event (such as overloaded_error
// in the middle of a stream, which arrives with the stream's status 200)
// is an *llm.APIError whose status comes from its type.
func decodeEvent(ev llm.Event) (event, error) {
	var e event
	if err := json.Unmarshal(ev.Data, &e); err != nil {
		return event{}, err
	}
	if e.Type == "error" || ev.Name == "error" {
		msg := e.Error.Message
		if msg == "" {
			msg = string(ev.Data)
		}
		return event{}, &llm.APIError{Status: statusOf(e.Error.Type), Message: msg}
	}
	return e, nil
}

// usage is the API's token counts: input_tokens counts only what was
// neither read from nor written to the cache.
type usage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
}

// merge takes the counts v reports: message_start has them all, and
// message_delta the final output (and, in newer versions of the API, the
// input counts again).
func (u *usage) merge(v usage) {
	u.InputTokens = newer(u.InputTokens, v.InputTokens)
	u.OutputTokens = newer(u.OutputTokens, v.OutputTokens)
	u.CacheReadInputTokens = newer(u.CacheReadInputTokens, v.CacheReadInputTokens)
	u.CacheCreationInputTokens = newer(u.CacheCreationInputTokens, v.CacheCreationInputTokens)
}

// newer is the count an event reports, or the one before when it
// reports none.
func newer(before, now int) int {
	if now > 0 {
		return now
	}
	return before
}

// neutral is u as the agent counts it: the input is the whole prompt,
// cached parts included.
func (u usage) neutral() llm.Usage {
	return llm.Usage{
		InputTokens:      u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens,
		OutputTokens:     u.OutputTokens,
		CachedTokens:     u.CacheReadInputTokens,
		CacheWriteTokens: u.CacheCreationInputTokens,
	}
}

// statusOf is the HTTP status of an error type, for an error event.
func statusOf(errorType string) int {
	switch errorType {
	case "invalid_request_error":
		return 400
	case "authentication_error":
		return 401
	case "permission_error", "billing_error":
		return 403
	case "not_found_error":
		return 404
	case "request_too_large":
		return 413
	case "rate_limit_error":
		return 429
	case "overloaded_error":
		return 529
	case "timeout_error":
		return 504
	}
	return 500
}

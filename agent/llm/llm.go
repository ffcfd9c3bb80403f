// Package llm holds the provider-neutral message types and the Model
// interface the agent loop consumes, and what the providers' clients
// share: the retry policy, the wording of failures, the error pages,
// server-sent events (Events) and JSON requests (PostJSON). Each provider
// lives in its own subpackage: openai, anthropic and ollama are small
// clients of their wire protocols over net/http, gemini is built on
// Google's SDK; llmtest has a scripted model and fake servers for tests.
package llm

import (
	"context"
	"iter"
)

// Role is who wrote a message.
type Role string

// The two roles of a conversation. Tool responses travel as user messages:
// the protocol is plain text.
const (
	User      Role = "user"
	Assistant Role = "assistant"
)

// Message is one turn of the conversation.
type Message struct {
	Role Role   `json:"role"`
	Text string `json:"text"`
	// Images follow the text, in order (user messages only): a person's
	// attachments, or pictures a tool returned (read_file of a PNG).
	Images []Image `json:"images,omitempty"`
}

// Request is everything one model call needs.
type Request struct {
	System   string
	Messages []Message
	// Stop sequences end the reply where they appear (the loop passes
	// "<tool_response" so a model cannot invent tool results).
	Stop      []string
	MaxTokens int // 0 means the provider's default
	// Reasoning asks for the model's thinking, mapped to each provider's
	// own setting; "" sends nothing and leaves the provider's default.
	Reasoning Reasoning
}

// Usage counts tokens of one model call.
type Usage struct {
	// InputTokens is the whole prompt, cached parts included.
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"` // thinking included
	// CachedTokens is the part of the prompt read from the provider's
	// cache (billed at a fraction of the price).
	CachedTokens int `json:"cached_tokens,omitempty"`
	// CacheWriteTokens is the part of the prompt written to the cache
	// (Anthropic bills it at a premium; others report none).
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
	// ThinkingTokens is the part of the output spent thinking, when the
	// provider reports it.
	ThinkingTokens int `json:"thinking_tokens,omitempty"`
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:      u.InputTokens + v.InputTokens,
		OutputTokens:     u.OutputTokens + v.OutputTokens,
		CachedTokens:     u.CachedTokens + v.CachedTokens,
		CacheWriteTokens: u.CacheWriteTokens + v.CacheWriteTokens,
		ThinkingTokens:   u.ThinkingTokens + v.ThinkingTokens,
	}
}

// Chunk is one piece of a streamed reply: a text delta, a thought delta,
// or (at the end) the usage and the finish reason.
type Chunk struct {
	Text string
	// Thought is the provider's separate thinking, for display only: it
	// is never parsed for calls and never goes back into the conversation.
	Thought string
	Usage   *Usage
	Finish  string // "stop", "length", "stop_sequence", ... when known
}

// Model streams replies from one provider and model.
type Model interface {
	// Stream sends req and yields the reply as it arrives. An error ends
	// the sequence. Cancelling ctx stops the stream at once.
	Stream(ctx context.Context, req Request) iter.Seq2[Chunk, error]
	// Name is "provider/model", for logs and the interface.
	Name() string
}

// Package llm holds the provider-neutral message types and the Model
// interface the agent loop consumes. Each provider lives in its own
// subpackage (gemini, openai, anthropic) built on the provider's official
// SDK; llmtest has a scripted model and fake servers for tests.
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
}

// Request is everything one model call needs.
type Request struct {
	System   string
	Messages []Message
	// Stop sequences end the reply where they appear (the loop passes
	// "<tool_response" so a model cannot invent tool results).
	Stop      []string
	MaxTokens int // 0 means the provider's default
}

// Usage counts tokens of one model call.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	CachedTokens int `json:"cached_tokens,omitempty"`
}

// Chunk is one piece of a streamed reply: a text delta, or (at the end) the
// usage and the finish reason.
type Chunk struct {
	Text   string
	Usage  *Usage
	Finish string // "stop", "length", "stop_sequence", ... when known
}

// Model streams replies from one provider and model.
type Model interface {
	// Stream sends req and yields the reply as it arrives. An error ends
	// the sequence. Cancelling ctx stops the stream at once.
	Stream(ctx context.Context, req Request) iter.Seq2[Chunk, error]
	// Name is "provider/model", for logs and the interface.
	Name() string
}

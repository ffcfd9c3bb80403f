// Package llmtest has models and fake servers for tests: Script, an
// in-process llm.Model that returns canned replies and records what it
// was asked, and fake servers speaking each provider's real wire protocol.
package llmtest

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync"

	"github.com/agentcli/agent/agent/llm"
)

// ErrScriptDone is returned by a Script asked for more replies than it has.
var ErrScriptDone = errors.New("script has no more replies")

// Reply is one canned model reply.
type Reply struct {
	// Text is the reply. It is streamed in chunks of ChunkSize bytes, so
	// the loop's streaming parse is exercised as with a real provider.
	Text string
	// Chunks, when set, is the reply already split; Text is then ignored.
	Chunks []string
	// Usage is sent with the last chunk when set.
	Usage *llm.Usage
	// Finish is the finish reason sent with the last chunk.
	Finish string
	// Err, when set, ends the stream after the text, as a provider error
	// would (wrap llm.ErrStreamDropped to simulate a dropped stream).
	Err error
	// Block makes the stream wait, after the text, until the request's
	// context is done, as a provider that stops sending would.
	Block bool
}

// DefaultChunkSize is the size of the chunks a Reply's Text is cut into.
const DefaultChunkSize = 16

// Script is an llm.Model that returns its replies in order, one per
// Stream call, and records each request. It is safe for concurrent use.
type Script struct {
	// ChunkSize overrides DefaultChunkSize when positive.
	ChunkSize int
	// ModelName is what Name returns ("script" when empty).
	ModelName string
	// Images is what ImageSpec answers: nil for a model that reads no
	// images.
	Images *llm.ImageSpec

	mu       sync.Mutex
	replies  []Reply
	requests []llm.Request
}

// NewScript returns a Script that gives replies in order.
func NewScript(replies ...Reply) *Script {
	return &Script{replies: replies}
}

// Texts is a shortcut for a Script whose replies are plain texts.
func Texts(texts ...string) *Script {
	rs := make([]Reply, len(texts))
	for i, t := range texts {
		rs[i] = Reply{Text: t}
	}
	return NewScript(rs...)
}

// Name returns ModelName, or "script".
func (s *Script) Name() string {
	if s.ModelName == "" {
		return "script"
	}
	return s.ModelName
}

// ImageSpec returns Images, or a spec that takes no images.
func (s *Script) ImageSpec(context.Context) llm.ImageSpec {
	if s.Images == nil {
		return llm.ImageSpec{Why: s.Name() + " is a script that reads no images"}
	}
	return *s.Images
}

// Requests returns a copy of the requests received so far.
func (s *Script) Requests() []llm.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]llm.Request, len(s.requests))
	for i, r := range s.requests {
		r.Messages = slices.Clone(r.Messages)
		r.Stop = slices.Clone(r.Stop)
		out[i] = r
	}
	return out
}

// Remaining returns how many replies have not been asked for.
func (s *Script) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.replies) - len(s.requests)
}

// Stream records req and streams the next reply. Stop sequences are
// recorded but not applied: the script says exactly what the model writes,
// including text a real provider would have cut, so that the loop's own
// guard against it can be tested.
func (s *Script) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	s.mu.Lock()
	n := len(s.requests)
	req.Messages = slices.Clone(req.Messages)
	req.Stop = slices.Clone(req.Stop)
	s.requests = append(s.requests, req)
	var r Reply
	ok := n < len(s.replies)
	if ok {
		r = s.replies[n]
	}
	size := s.ChunkSize
	s.mu.Unlock()
	if size <= 0 {
		size = DefaultChunkSize
	}

	return func(yield func(llm.Chunk, error) bool) {
		if !ok {
			yield(llm.Chunk{}, fmt.Errorf("request %d: %w", n+1, ErrScriptDone))
			return
		}
		chunks := r.Chunks
		if chunks == nil {
			chunks = split(r.Text, size)
		}
		for i, c := range chunks {
			if err := ctx.Err(); err != nil {
				yield(llm.Chunk{}, err)
				return
			}
			ch := llm.Chunk{Text: c}
			if i == len(chunks)-1 && r.Err == nil && !r.Block {
				ch.Usage, ch.Finish = r.Usage, r.Finish
			}
			if !yield(ch, nil) {
				return
			}
		}
		switch {
		case r.Block:
			<-ctx.Done()
			yield(llm.Chunk{}, ctx.Err())
		case r.Err != nil:
			yield(llm.Chunk{}, r.Err)
		case len(chunks) == 0 && (r.Usage != nil || r.Finish != ""):
			yield(llm.Chunk{Usage: r.Usage, Finish: r.Finish}, nil)
		}
	}
}

// split cuts s into pieces of at most size bytes, never inside a UTF-8
// sequence.
func split(s string, size int) []string {
	var out []string
	for len(s) > 0 {
		n := min(size, len(s))
		for n < len(s) && n > 0 && s[n]&0xC0 == 0x80 {
			n--
		}
		if n == 0 { // size is smaller than this rune: take the rune whole
			n = 1
			for n < len(s) && s[n]&0xC0 == 0x80 {
				n++
			}
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

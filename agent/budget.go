package agent

import (
	"errors"
	"fmt"
	"math"

	"github.com/agentcli/agent/agent/llm"
)

// ErrContextWindow reports a model window too small for the system prompt
// and a working turn, or a turn that cannot be brought under it.
var ErrContextWindow = errors.New("context window too small")

// Forgetter is told when the content of a call's result leaves the
// conversation (elided or compacted), so that the file tools stop counting
// that read as read: the model must read again before it rewrites or
// partially writes those lines, and never edits from a faded memory.
// (*fsedit.Session).ForgetCall satisfies it.
type Forgetter interface {
	ForgetCall(callID string)
}

// Shares of the usable window (the window minus the reply reserve and the
// thinking budget). Above highWater old tool results are elided, oldest
// first, down to lowWater: eliding in batches rather than one at a time
// keeps the conversation's prefix unchanged, and so cached, for several
// turns. If stubs are not enough the conversation is compacted.
const (
	highWater = 0.80
	lowWater  = 0.60
)

// workingTurn is the room a conversation needs beyond the system prompt
// for a task and one tool result, in tokens.
const workingTurn = 1024

// Budget keeps every request of a conversation inside the model's context
// window. It estimates each request's tokens from its bytes, corrected by
// what the provider reported for the previous one; replaces the content
// of old tool results with one-line stubs, oldest first; and tells the
// loop when only a compaction (a model-written summary of the older
// turns) can make room. The zero Window turns it off. One Budget serves
// one conversation; it is not safe for concurrent use.
type Budget struct {
	// Window is the model's context window in tokens; 0 means unknown,
	// and nothing is cut.
	Window int
	// Reserve is the room kept for the reply, in tokens; when zero, the
	// request's MaxTokens, or DefaultReserve.
	Reserve int
	// Source says where Window came from ("config", "ollama /api/ps"), for
	// the error when it is too small.
	Source string
	// Hint ends that error: what the user can do ("set
	// OLLAMA_CONTEXT_LENGTH=16384 for the Ollama server").
	Hint string
	// Reads is told about every result whose content leaves the
	// conversation; nil tells nobody.
	Reads Forgetter

	factor  float64 // reported / estimated tokens of the last call
	lastEst int     // estimate of the last request prepared
	// elided are the call ids whose results are stubs, and the keys of
	// the images dropped (imageKey).
	elided map[string]bool
	system int // corrected estimate of the system prompt
	// imageTokens is the model's rule for what an image costs (nil:
	// llm.DefaultImageTokens), set by the loop from the model.
	imageTokens func(width, height int) int
}

// DefaultReserve is the reply reserve for a window when nothing sets one:
// a quarter of the window, at least 512 and at most 8,192 tokens.
func DefaultReserve(window int) int { return min(max(window/4, 512), 8192) }

func (b *Budget) reserve(req llm.Request) int {
	switch {
	case b.Reserve > 0:
		return b.Reserve
	case req.MaxTokens > 0:
		return req.MaxTokens
	}
	return DefaultReserve(b.Window)
}

// Limit is the most tokens a request may hold: the window minus the reply
// reserve and the thinking budget of the request's reasoning level.
func (b *Budget) Limit(req llm.Request) int {
	return b.Window - b.reserve(req) - req.Reasoning.ThinkingBudget()
}

func (b *Budget) correction() float64 {
	if b.factor == 0 {
		return 1
	}
	return b.factor
}

// Estimate is the corrected token estimate of req.
func (b *Budget) Estimate(req llm.Request) int {
	return int(math.Ceil(float64(b.rawTokens(req)) * b.correction()))
}

// Observe records the estimate of the request just sent and the prompt
// tokens the provider reported for it; later estimates are scaled by
// their ratio. A ratio beyond 0.75-3 is taken as a provider counting
// something else (or not at all) and bounded: an undercount is the
// dangerous side.
func (b *Budget) Observe(estimated, reported int) {
	if estimated <= 0 || reported <= 0 {
		return
	}
	b.factor = min(max(float64(reported)/float64(estimated)*b.correction(), 0.75), 3)
}

// observe is Observe for the last request prepared.
func (b *Budget) observe(reported int) { b.Observe(b.lastEst, reported) }

// CheckSystem reports whether system leaves room in the window for a
// reply and a working turn; the error, one line, says what is missing
// and ends with Hint.
func (b *Budget) CheckSystem(system string, req llm.Request) error {
	if b.Window <= 0 {
		return nil
	}
	req.System = system
	sys := int(math.Ceil(float64(EstimateTokens(system)) * b.correction()))
	reply := b.reserve(req) + req.Reasoning.ThinkingBudget()
	if sys+reply+workingTurn <= b.Window {
		return nil
	}
	src := ""
	if b.Source != "" {
		src = ", from " + b.Source
	}
	hint := ""
	if b.Hint != "" {
		hint = "; " + b.Hint
	}
	return fmt.Errorf("%w: the model's window (%d tokens%s) cannot hold the system prompt (about %d tokens), a reply (%d) and a working turn (%d)%s",
		ErrContextWindow, b.Window, src, sys, reply, workingTurn, hint)
}

// ReadBudget is how many bytes a whole-file read may return now: the room
// the window leaves beside the system prompt once old results are
// elided, at about 3.5 bytes a token. 0 means no limit (no window known).
// The file tools call it through their options.
func (b *Budget) ReadBudget() int {
	if b.Window <= 0 {
		return 0
	}
	room := int(float64(b.Window-DefaultReserve(b.Window))*highWater) - b.system - workingTurn/2
	return max(int(float64(room)*3.5/b.correction()), 2048)
}

// InUse is the estimated size of the last request prepared and the
// window, for the share of the window in use that the chat's status line
// and usage reports show.
func (b *Budget) InUse() (tokens, window int) { return b.lastEst, b.Window }

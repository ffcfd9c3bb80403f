package agent

import (
	"errors"
	"fmt"
	"math"

	"github.com/agentcli/agent/agent/llm"
)

// Room for the conversation beside the system prompt, in tokens, under
// the budget's high-water mark (what messages may hold before old
// results start to fade).
const (
	// MinRoom is the least room a fuller system prompt must leave; one
	// that leaves less gives way to a leaner form (a smaller file tree, a
	// small-window prompt), so that a 4k–8k window still has room for a
	// file read and a few turns.
	MinRoom = 4096
	// NeedRoom is the room asked for when the window is the agent's to
	// choose (Ollama's num_ctx): a few file reads and turns before
	// anything fades.
	NeedRoom = 8192
)

// Room is the room the window leaves a conversation beside the system
// prompt system: the tokens the messages may hold before old results are
// elided. It is math.MaxInt when the window is unknown.
func (b *Budget) Room(system string, req llm.Request) int {
	if b.Window <= 0 {
		return math.MaxInt
	}
	return b.room(b.systemTokens(system), req)
}

func (b *Budget) systemTokens(system string) int {
	return int(math.Ceil(float64(EstimateTokens(system)) * b.correction()))
}

func (b *Budget) room(sys int, req llm.Request) int {
	return int(float64(b.Limit(req))*highWater) - sys
}

// Need is the smallest window, in steps of 1,024 tokens, that leaves
// NeedRoom beside system, the reply reserve and the thinking budget:
// what a conversation with this system prompt should ask for where the
// window is chosen per conversation.
func (b *Budget) Need(system string, req llm.Request) int {
	sys := b.systemTokens(system)
	probe := *b
	for w := 2048; w < 1<<24; w += 1024 {
		probe.Window = w
		if probe.room(sys, req) >= NeedRoom {
			return w
		}
	}
	return 1 << 24
}

// SystemFit is the system prompt FitSystem chose and why.
type SystemFit struct {
	// Index is which candidate was chosen, from 0 (the fullest).
	Index int
	Text  string
	// Tokens is the prompt's estimate, Room what the window leaves
	// beside it (math.MaxInt: no window known).
	Tokens, Room int
	// Why says, in words, why this one was chosen.
	Why string
}

// FitSystem chooses among the candidate system prompts, from the fullest
// to the leanest: the first that leaves MinRoom for the conversation;
// failing that, the leanest that leaves room for a reply and a working
// turn (CheckSystem); failing that, the leanest one's error. With no
// window known the first is chosen. The conversation builder calls it
// once, before the first turn.
func (b *Budget) FitSystem(req llm.Request, candidates ...func() (string, error)) (SystemFit, error) {
	if len(candidates) == 0 {
		return SystemFit{}, errors.New("no system prompt to fit")
	}
	var last SystemFit
	var lastErr error
	for i, build := range candidates {
		s, err := build()
		if err != nil {
			return SystemFit{}, err
		}
		fit := SystemFit{Index: i, Text: s, Tokens: EstimateTokens(s), Room: b.Room(s, req)}
		if b.Window <= 0 {
			fit.Why = "the model's window is unknown, so nothing is cut"
			return fit, nil
		}
		if fit.Room >= MinRoom {
			fit.Why = fmt.Sprintf("the window of %d tokens leaves %d for the conversation beside it (%d wanted)", b.Window, fit.Room, MinRoom)
			if i > 0 {
				fit.Why = fmt.Sprintf("a fuller prompt would leave less than %d tokens of the window of %d for the conversation; this one leaves %d", MinRoom, b.Window, fit.Room)
			}
			return fit, nil
		}
		last, lastErr = fit, b.CheckSystem(s, req)
	}
	if lastErr != nil {
		return SystemFit{}, lastErr
	}
	last.Why = fmt.Sprintf("the window of %d tokens is small: the leanest prompt leaves %d tokens for the conversation", b.Window, last.Room)
	return last, nil
}

package llm

import (
	"fmt"
	"strings"
)

// Reasoning is how much a model may think before it answers: off, low,
// medium or high ("" leaves the provider's default). Each provider maps
// it to its own setting: Gemini's thinking budget, OpenAI's reasoning
// effort, Anthropic's extended thinking.
type Reasoning string

// The reasoning levels.
const (
	ReasoningDefault Reasoning = ""
	ReasoningOff     Reasoning = "off"
	ReasoningLow     Reasoning = "low"
	ReasoningMedium  Reasoning = "medium"
	ReasoningHigh    Reasoning = "high"
)

// ParseReasoning reads a reasoning level, case-insensitively.
func ParseReasoning(s string) (Reasoning, error) {
	switch r := Reasoning(strings.ToLower(strings.TrimSpace(s))); r {
	case ReasoningDefault, ReasoningOff, ReasoningLow, ReasoningMedium, ReasoningHigh:
		return r, nil
	}
	return "", fmt.Errorf("reasoning %q: use off, low, medium or high", s)
}

// ThinkingBudget is the number of tokens a level lets the model think,
// where the provider takes a number (Gemini, Anthropic); the context
// budget reserves it in every request. Off and the default reserve none.
func (r Reasoning) ThinkingBudget() int {
	switch r {
	case ReasoningLow:
		return 2048
	case ReasoningMedium:
		return 8192
	case ReasoningHigh:
		return 16384
	}
	return 0
}

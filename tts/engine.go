package tts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Engine synthesises speech.
type Engine interface {
	// Name is the provider's name: "gemini" or "espeak".
	Name() string
	// Voice resolves what a user asked for ("" is the engine's default)
	// to the engine's own spelling of the voice, or returns a *VoiceError.
	Voice(ctx context.Context, name string) (string, error)
	// Voices lists the voices the engine has.
	Voices(ctx context.Context) ([]Voice, error)
	// Synthesize speaks text, at most MaxInput bytes, with a voice that
	// Voice returned.
	Synthesize(ctx context.Context, text, voice string) (Audio, error)
	// MaxInput is the most text, in bytes, one Synthesize call takes.
	MaxInput() int
}

// Voice is one voice of an engine.
type Voice struct {
	Name     string `json:"name"`
	Language string `json:"language,omitempty"`
	Gender   string `json:"gender,omitempty"`
	// Description says what it sounds like ("Bright", "Firm").
	Description string `json:"description,omitempty"`
}

// Sentinels of the package; errors.Is finds them in the errors it returns.
var (
	// ErrUnknownVoice: the engine has no such voice.
	ErrUnknownVoice = errors.New("unknown voice")
	// ErrEmptyText: nothing to say.
	ErrEmptyText = errors.New("no text to speak")
	// ErrNoEngine: the engine cannot run here (no key, program missing).
	ErrNoEngine = errors.New("engine not available")
)

// VoiceError is an unknown voice, with the voices that exist.
type VoiceError struct {
	Engine string
	Voice  string
	Known  []string // the names to choose from; none when no name would do
	Reason string   // why the name was refused, when not simply unknown
}

func (e *VoiceError) Error() string {
	reason := e.Reason
	if reason == "" {
		reason = "unknown voice"
	}
	voice := e.Voice
	if len(voice) > maxVoiceShown {
		// A voice string can be anything a caller sent: a megabyte of it
		// must not come back in a one-line message.
		voice = voice[:maxVoiceShown]
		for len(voice) > 0 && !utf8.ValidString(voice) {
			voice = voice[:len(voice)-1]
		}
		return fmt.Sprintf("%s: %s %q… (%d bytes)%s", e.Engine, reason, voice, len(e.Voice), e.known())
	}
	return fmt.Sprintf("%s: %s %q%s", e.Engine, reason, voice, e.known())
}

// known lists the voices to choose from, when choosing another helps.
func (e *VoiceError) known() string {
	if len(e.Known) == 0 {
		return ""
	}
	return "; voices: " + strings.Join(e.Known, ", ")
}

// maxVoiceShown is how much of an unknown voice a message repeats.
const maxVoiceShown = 60

// Unwrap makes errors.Is(err, ErrUnknownVoice) true.
func (e *VoiceError) Unwrap() error { return ErrUnknownVoice }

// ProviderError is a failure of the engine or the service behind it.
type ProviderError struct {
	Engine string
	Piece  int // 1-based number of the piece that failed; 0 when not known
	Pieces int
	Err    error
}

func (e *ProviderError) Error() string {
	if e.Pieces > 1 && e.Piece > 0 {
		return fmt.Sprintf("%s failed on piece %d of %d: %v", e.Engine, e.Piece, e.Pieces, e.Err)
	}
	return fmt.Sprintf("%s failed: %v", e.Engine, e.Err)
}

func (e *ProviderError) Unwrap() error { return e.Err }

package tts_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentcli/agent/tts"
	"github.com/agentcli/agent/tts/ttstest"
)

// TestSpeakMaxSize: a speech that adds up to more than MaxSize is refused
// with a *SizeError saying how long the limit lasts, and the pieces after
// the limit was passed are not asked for.
func TestSpeakMaxSize(t *testing.T) {
	fake := ttstest.NewGemini(t)
	// 20 pieces of ~190 bytes, each ~9 KB of samples at 24 frames a byte.
	sp := &tts.Speaker{Engine: newGemini(t, fake, 200), Concurrency: 1, MaxSize: 40_000}
	text := numbered(20, 4)
	_, err := sp.Speak(t.Context(), text, "")
	var se *tts.SizeError
	if !errors.As(err, &se) || se.Limit != 40_000 {
		t.Fatalf("Speak = %v, want a *SizeError of 40000", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "over 0 seconds (40 KB of WAV)") || !strings.Contains(msg, "split the text") {
		t.Errorf("message %q, want the limit and what to do", msg)
	}
	if n, pieces := len(fake.Requests()), len(tts.Split(text, 200)); n > 6 || n >= pieces {
		t.Errorf("%d of %d pieces were spoken after the limit was passed", n, pieces)
	}

	// The default, at Gemini's rate.
	def := &tts.SizeError{Limit: tts.DefaultMaxSize, Format: tts.Format{SampleRate: 24000, Channels: 1, Bits: 16}}
	if got, want := def.Error(), "over 46 minutes (128 MiB of WAV)"; !strings.Contains(got, want) {
		t.Errorf("default limit says %q, want %q", got, want)
	}
	// A negative MaxSize lifts the limit.
	sp.MaxSize = -1
	if _, err := sp.Speak(t.Context(), text, ""); err != nil {
		t.Errorf("Speak without a limit = %v", err)
	}
}

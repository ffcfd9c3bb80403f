package tts_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/tts"
	"github.com/agentcli/agent/tts/ttstest"
)

// TestSpeakControlCharacters: control characters in the text are not
// words; a NUL used to end espeak-ng's input, leaving an empty file.
func TestSpeakControlCharacters(t *testing.T) {
	sp := &tts.Speaker{Engine: needEspeak(t)}
	speech, err := sp.Speak(t.Context(), "\x00\x1b[2J Hello there, this is spoken.", "")
	if err != nil {
		t.Fatal(err)
	}
	if d := speech.Duration(); d < 500*time.Millisecond {
		t.Errorf("speech lasts %v, want the words spoken", d)
	}
}

// TestVoiceErrorShort: an unknown voice of any length gives a short
// message, with the voice's start and length.
func TestVoiceErrorShort(t *testing.T) {
	msg := (&tts.VoiceError{Engine: "espeak", Voice: strings.Repeat("A:Kore,", 100_000), Known: []string{"en-us"}}).Error()
	if len(msg) > 300 || !strings.Contains(msg, "(700000 bytes)") || !strings.Contains(msg, "voices: en-us") {
		t.Errorf("message of %d bytes: %.300s", len(msg), msg)
	}
}

// TestConcurrencyBounded: a Concurrency of thousands (a project's config
// may say anything) runs at most MaxConcurrency pieces at once.
func TestConcurrencyBounded(t *testing.T) {
	fake := ttstest.NewGemini(t)
	fake.Delay = 20 * time.Millisecond
	sp := &tts.Speaker{Engine: newGemini(t, fake, 200), Concurrency: 100_000}
	if _, err := sp.Speak(t.Context(), numbered(20, 4), ""); err != nil {
		t.Fatal(err)
	}
	if m := fake.MaxInFlight(); m > tts.MaxConcurrency {
		t.Errorf("%d requests at once, want at most %d", m, tts.MaxConcurrency)
	}
}

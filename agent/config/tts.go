package config

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// TTS configures speech: the audio_generation tool and agent tts. Every
// field may be left empty. Gemini speech has its own key and address,
// never the chat provider's: a chat on OpenRouter must not send the Gemini
// key there, nor a speech request to it.
type TTS struct {
	// Provider is "gemini", "espeak" (or "espeak-ng"), or "" for Gemini
	// when a Gemini key is set, else the offline espeak-ng.
	Provider string `toml:"provider"`
	// Model is Gemini's speech model; "" means its default
	// (gemini-2.5-flash-preview-tts).
	Model string `toml:"model"`
	// Voice is the provider's default voice ("Zephyr", "en-us").
	Voice string `toml:"voice"`
	// BaseURL is Gemini's address for speech; "" means
	// GOOGLE_GEMINI_BASE_URL, then Google's own address.
	BaseURL string `toml:"base_url"`
	// Concurrency bounds the pieces of one text spoken at once; 0 means 3.
	Concurrency int `toml:"concurrency"`
}

// TTSKeyEnvs are the variables Gemini speech takes its key from, first set
// wins. They are Gemini's own, whatever the chat provider is.
var TTSKeyEnvs = keyEnvs("gemini")

// GeminiKey returns the key for Gemini speech from env and the variable it
// came from ("" when none is set).
func (t TTS) GeminiKey(env map[string]string) (key, from string) {
	for _, k := range TTSKeyEnvs {
		if v := strings.TrimSpace(env[k]); v != "" {
			return v, k
		}
	}
	return "", ""
}

// TTSProviders are the speech engines tts.provider names ("espeak-ng"
// is also taken for espeak).
var TTSProviders = []string{"gemini", "espeak"}

// Validate checks the section's values, naming the setting at fault.
func (t TTS) Validate() error {
	switch p := strings.ToLower(strings.TrimSpace(t.Provider)); p {
	case "", "gemini", "espeak", "espeak-ng":
	default:
		return fmt.Errorf("tts.provider = %s: use gemini or espeak", strconv.Quote(t.Provider))
	}
	if t.Concurrency < 0 || t.Concurrency > 16 {
		return fmt.Errorf("tts.concurrency = %d: use a number from 1 to 16 (0 means 3)", t.Concurrency)
	}
	if t.BaseURL != "" {
		u, err := url.Parse(t.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("tts.base_url = %s: use an http or https address", strconv.Quote(t.BaseURL))
		}
	}
	return nil
}

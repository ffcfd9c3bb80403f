package config

import (
	"strings"
	"testing"
)

func TestTTSSection(t *testing.T) {
	file := "[tts]\nprovider = \"espeak\"\nmodel = \"gemini-2.5-pro-preview-tts\"\nvoice = \"en-gb\"\nbase_url = \"http://127.0.0.1:9\"\nconcurrency = 2\n"
	cfg, err := Load(Input{Files: files(t, "", file), Env: map[string]string{"GEMINI_API_KEY": "k"}})
	if err != nil {
		t.Fatal(err)
	}
	want := TTS{Provider: "espeak", Model: "gemini-2.5-pro-preview-tts", Voice: "en-gb", BaseURL: "http://127.0.0.1:9", Concurrency: 2}
	if cfg.TTS != want {
		t.Errorf("TTS = %+v, want %+v", cfg.TTS, want)
	}
	if !strings.HasSuffix(cfg.Origin("tts.base_url"), "config.toml") {
		t.Errorf("origin of tts.base_url = %q", cfg.Origin("tts.base_url"))
	}
	if err := cfg.TTS.Validate(); err != nil {
		t.Error(err)
	}
	// The chat's base URL is never the speech address.
	cfg, _ = Load(Input{Files: files(t, "", "provider = \"openrouter\"\nbase_url = \"https://openrouter.ai/api/v1\"\n"), Env: map[string]string{"OPENROUTER_API_KEY": "o"}})
	if cfg.TTS.BaseURL != "" {
		t.Errorf("tts.base_url = %q, taken from the chat", cfg.TTS.BaseURL)
	}
}

func TestTTSBadSettings(t *testing.T) {
	for file, want := range map[string]string{
		"[tts]\nvoise = \"Kore\"\n":     `unknown setting tts.voise in `,
		"[tts]\napi_key = \"secret\"\n": "keys are never stored in config files",
	} {
		_, err := Load(Input{Files: files(t, "", file), Env: map[string]string{"GEMINI_API_KEY": "k"}})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("file %q: err = %v, want %q", file, err, want)
		}
	}
	for _, tc := range []struct {
		tts  TTS
		want string
	}{
		{TTS{Provider: "polly"}, `tts.provider = "polly": use gemini or espeak`},
		{TTS{Concurrency: 99}, "tts.concurrency = 99"},
		{TTS{Concurrency: -1}, "tts.concurrency = -1"},
		{TTS{BaseURL: "localhost:8080"}, "tts.base_url"},
	} {
		if err := tc.tts.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v) = %v, want %q", tc.tts, err, tc.want)
		}
	}
	if err := (TTS{Provider: "Espeak-NG"}).Validate(); err != nil {
		t.Error(err)
	}
}

func TestTTSKey(t *testing.T) {
	var tt TTS
	for _, tc := range []struct {
		env       map[string]string
		key, from string
	}{
		{map[string]string{}, "", ""},
		{map[string]string{"OPENAI_API_KEY": "o"}, "", ""},
		{map[string]string{"GOOGLE_API_KEY": "g"}, "g", "GOOGLE_API_KEY"},
		{map[string]string{"GOOGLE_API_KEY": "g", "GEMINI_API_KEY": "m"}, "m", "GEMINI_API_KEY"},
	} {
		if key, from := tt.GeminiKey(tc.env); key != tc.key || from != tc.from {
			t.Errorf("GeminiKey(%v) = %q, %q", tc.env, key, from)
		}
	}
}

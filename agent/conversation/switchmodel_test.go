package conversation

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/config"
)

// TestMissingKeyInChatWords: /model to a provider with no key says which
// variable to set, in the chat's words: no command-line flag.
func TestMissingKeyInChatWords(t *testing.T) {
	cfg := config.Defaults()
	cfg.Provider, cfg.APIKey = "anthropic", ""
	err := missingKeyInWords(cfg)
	if err == nil {
		t.Fatal("no error for a provider without its key")
	}
	msg := err.Error()
	if !strings.Contains(msg, "ANTHROPIC_API_KEY") || strings.Contains(msg, "--") || !strings.Contains(msg, "/model") {
		t.Errorf("message %q", msg)
	}
	cfg.APIKey = "set"
	if err := missingKeyInWords(cfg); err != nil {
		t.Errorf("a key is set, yet: %v", err)
	}
}

// TestSlashModels: an unknown provider prefix is refused for providers
// whose model names have no slash, let through for those whose do.
func TestSlashModels(t *testing.T) {
	for _, tc := range []struct {
		provider, base string
		want           bool
	}{
		{"gemini", "", false}, {"anthropic", "", false}, {"openai", "", false},
		{"openai", config.OpenAIURL, false}, {"openai", "http://127.0.0.1:8000/v1", true},
		{"openrouter", "", true}, {"ollama", "", true},
	} {
		cfg := config.Defaults()
		cfg.Provider, cfg.BaseURL = tc.provider, tc.base
		if got := slashModels(cfg); got != tc.want {
			t.Errorf("slashModels(%s %s) = %v", tc.provider, tc.base, got)
		}
	}
}

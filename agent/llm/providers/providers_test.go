package providers_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/agent/llm/providers"
)

// TestNewTalksToEachFamily builds the model of each provider family from
// a configuration, as the commands do, and streams a reply from a fake
// server speaking that family's wire protocol through its real client.
func TestNewTalksToEachFamily(t *testing.T) {
	for _, c := range []struct {
		provider string
		server   func(testing.TB, ...llmtest.Answer) *llmtest.Server
	}{
		{"gemini", llmtest.NewGeminiServer},
		{"openai", llmtest.NewOpenAIServer},
		{"anthropic", llmtest.NewAnthropicServer},
		{"ollama", func(t testing.TB, a ...llmtest.Answer) *llmtest.Server {
			return llmtest.NewOllamaServer(t, []llmtest.OllamaModel{{Name: "m"}}, a...).Server
		}},
	} {
		t.Run(c.provider, func(t *testing.T) {
			srv := c.server(t, llmtest.Answer{Chunks: []string{"hello ", "there"}})
			cfg, err := config.Load(config.Input{Env: config.EnvMap(srv.Env()), Flags: config.Flags{Provider: c.provider, Model: "m"}})
			if err != nil {
				t.Fatal(err)
			}
			m, err := providers.New(t.Context(), cfg)
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			if !strings.HasPrefix(m.Name(), c.provider+"/") {
				t.Errorf("Name() = %q, want %s/…", m.Name(), c.provider)
			}
			text, _, _, err := llmtest.Collect(m.Stream(t.Context(), llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "hi"}}}))
			if err != nil || text != "hello there" {
				t.Errorf("reply = %q, %v; want \"hello there\"", text, err)
			}
		})
	}
}

// TestNewWithoutKeySaysWhichToSet: a provider that needs a key and has
// none is refused before anything is built, naming the variable.
func TestNewWithoutKeySaysWhichToSet(t *testing.T) {
	cfg, err := config.Load(config.Input{Env: map[string]string{}, Flags: config.Flags{Provider: "anthropic"}})
	if err != nil && !errors.Is(err, config.ErrNoProvider) {
		t.Fatal(err)
	}
	if _, err := providers.New(t.Context(), cfg); err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("New without a key = %v, want an error naming ANTHROPIC_API_KEY", err)
	}
}

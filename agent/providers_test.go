package agent_test

import (
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/anthropic"
	"github.com/agentcli/agent/agent/llm/gemini"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/agent/llm/openai"
)

// providers are the real SDK providers the fault tests run through, each
// against its fake server.
var providers = []provider{
	{
		name:      "gemini",
		newServer: llmtest.NewGeminiServer,
		newModel: func(t testing.TB, s *llmtest.Server, p llm.Policy) llm.Model {
			return must(t)(gemini.New(t.Context(), gemini.Options{Model: "gemini-test", APIKey: "llmtest-key", BaseURL: s.URL, Policy: p, KeySetting: "GEMINI_API_KEY"}))
		},
	},
	{
		name:      "openai",
		newServer: llmtest.NewOpenAIServer,
		newModel: func(t testing.TB, s *llmtest.Server, p llm.Policy) llm.Model {
			return must(t)(openai.New(openai.Options{Provider: "openai", Model: "gpt-test", APIKey: "llmtest-key", BaseURL: s.URL, Policy: p, KeySetting: "OPENAI_API_KEY"}))
		},
	},
	{
		name:      "anthropic",
		newServer: llmtest.NewAnthropicServer,
		newModel: func(t testing.TB, s *llmtest.Server, p llm.Policy) llm.Model {
			return must(t)(anthropic.New(anthropic.Options{Model: "claude-test", APIKey: "llmtest-key", BaseURL: s.URL, Policy: p, KeySetting: "ANTHROPIC_API_KEY"}))
		},
	},
}

// must fails the test on a constructor error.
func must(t testing.TB) func(llm.Model, error) llm.Model {
	return func(m llm.Model, err error) llm.Model {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
}

package agent_test

import (
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/gemini"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// providers are the real SDK providers the fault tests run through.
var providers = []provider{
	{
		name:      "gemini",
		newServer: llmtest.NewGeminiServer,
		newModel: func(t testing.TB, s *llmtest.Server, p llm.Policy) llm.Model {
			m, err := gemini.New(t.Context(), gemini.Options{Model: "gemini-test", APIKey: "llmtest-key", BaseURL: s.URL, Policy: p, KeySetting: "GEMINI_API_KEY"})
			if err != nil {
				t.Fatal(err)
			}
			return m
		},
	},
}

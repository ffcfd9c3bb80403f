// Package providers builds the configured model: the one package that
// knows every provider (gemini, openai and the OpenAI-compatible
// servers, ollama, anthropic), so that the loop, the conversation and
// the commands ask for "the configured model" and link no provider's
// name. Adding a provider is its package under agent/llm, its preset in
// agent/config and one case here.
package providers

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/anthropic"
	"github.com/agentcli/agent/agent/llm/gemini"
	"github.com/agentcli/agent/agent/llm/ollama"
	"github.com/agentcli/agent/agent/llm/openai"
	"github.com/agentcli/agent/internal/secretval"
)

// New builds the configured provider's model, with the retry policy and
// time limits of cfg. It makes no request; a missing key is an error
// that says which variable to set (config.MissingKey).
func New(ctx context.Context, cfg config.Config) (llm.Model, error) {
	if err := cfg.MissingKey(); err != nil {
		return nil, err
	}
	policy := llm.Policy{
		Attempts: cfg.Retry.Attempts,
		MaxTime:  time.Duration(cfg.Retry.MaxTime),
		Timeout:  time.Duration(cfg.ModelTimeout),
		// Every secret of the agent, not only this provider's key:
		// an error answer never shows one.
		Secrets: secretval.Of(os.Environ(), cfg.SecretVars(), cfg.SecretValues()),
	}
	keySetting, urlSetting := cfg.KeyEnv, cfg.URLSetting()
	local := "" // the server's name, when it runs on the user's machine
	if p, ok := config.LookupPreset(cfg.Provider); ok && p.NoKey {
		local = p.Title
	}
	switch cfg.Family {
	case config.FamilyGemini:
		return gemini.New(ctx, gemini.Options{
			Model: cfg.Model, APIKey: cfg.APIKey, BaseURL: cfg.BaseURL, Policy: policy,
			KeySetting: keySetting, URLSetting: urlSetting,
			Images: cfg.ImagesSetting(), // images
		})
	case config.FamilyOpenAI:
		return openai.New(openai.Options{
			Provider: cfg.Provider, Model: cfg.Model, APIKey: cfg.APIKey, BaseURL: cfg.BaseURL, Policy: policy,
			KeySetting: keySetting, URLSetting: urlSetting,
			// OpenAI itself wants max_completion_tokens (its reasoning
			// models refuse max_tokens); compatible servers read max_tokens.
			MaxCompletionTokens: cfg.BaseURL == config.OpenAIURL,
			AskWindow:           cfg.ServerWindow(),
			Local:               local,
			Images:              cfg.ImagesSetting(), // images
		})
	case config.FamilyOllama:
		numCtx, _ := cfg.Window() // a configured window is sent as num_ctx
		return ollama.New(ollama.Options{
			Model: cfg.Model, BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Policy: policy,
			URLSetting: urlSetting, NumCtx: numCtx,
			Images: cfg.ImagesSetting(), // images
		})
	case config.FamilyAnthropic:
		o := anthropic.Options{
			Model: cfg.Model, BaseURL: cfg.BaseURL, Policy: policy,
			KeySetting: keySetting, URLSetting: urlSetting,
			Images: cfg.ImagesSetting(), // images
		}
		if cfg.KeyEnv == "ANTHROPIC_AUTH_TOKEN" {
			o.AuthToken = cfg.APIKey
		} else {
			o.APIKey = cfg.APIKey
		}
		return anthropic.New(o)
	}
	return nil, fmt.Errorf("provider %q has no implementation", cfg.Provider)
}

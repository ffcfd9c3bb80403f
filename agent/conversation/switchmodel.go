package conversation

import (
	"fmt"
	"strings"

	"github.com/agentcli/agent/agent/config"
)

// checkModelSpec refuses a /model PREFIX/NAME whose prefix is no provider
// the agent knows, unless the conversation's provider takes model names
// with a slash in them (OpenRouter's google/gemini-2.5-flash, a local
// server's hub names, any OpenAI-compatible server of the user's own).
func (c *Conversation) checkModelSpec(spec string) error {
	p, _, ok := strings.Cut(spec, "/")
	if !ok || KnownProvider(p) || slashModels(c.cfg) {
		return nil
	}
	return fmt.Errorf("%q is no provider the agent knows (%s); /model NAME picks another model of this provider",
		p, strings.Join(config.PresetNames(), ", "))
}

// slashModels says whether cfg's provider names models with slashes:
// its preset says so (the routers and local servers), and an
// OpenAI-compatible server of the user's own (openai at another address)
// may; Gemini, Anthropic and OpenAI itself do not.
func slashModels(cfg config.Config) bool {
	p, _ := config.LookupPreset(cfg.Provider)
	if p.SlashModels {
		return true
	}
	base := strings.TrimRight(cfg.BaseURL, "/")
	return cfg.Provider == "openai" && base != "" && base != strings.TrimRight(config.OpenAIURL, "/")
}

// missingKeyInWords says, in the chat's words, what to set for a
// provider that has no key: the chat has no flags to give.
func missingKeyInWords(cfg config.Config) error {
	if cfg.MissingKey() == nil {
		return nil
	}
	if cfg.APIKeyEnv != "" {
		return fmt.Errorf("%s needs an API key: the configuration's api_key_env names %s, which is not set; set it in the environment and start agent again, or pick another provider with /model PROVIDER/MODEL",
			cfg.Provider, cfg.APIKeyEnv)
	}
	p, _ := config.LookupPreset(cfg.Provider)
	return fmt.Errorf("%s needs an API key: set %s in the environment and start agent again, or pick another provider with /model PROVIDER/MODEL",
		cfg.Provider, strings.Join(p.KeyEnvs, " or "))
}

package config

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// The wire protocols a provider speaks; each has one llm subpackage.
const (
	FamilyGemini    = "gemini"
	FamilyOpenAI    = "openai"
	FamilyAnthropic = "anthropic"
)

// Preset is what the agent knows about a provider name.
type Preset struct {
	Name   string
	Family string // FamilyGemini, FamilyOpenAI or FamilyAnthropic
	// BaseURL is the preset's address; "" leaves it to the SDK.
	BaseURL string
	// URLEnv is the SDK's variable for the address; when set it wins over
	// BaseURL (but not over base_url set for the agent by flag or env).
	URLEnv string
	// KeyEnvs are the variables the key is read from, first set wins.
	KeyEnvs []string
	// NoKey means the server needs no key (Ollama).
	NoKey bool
	// Model is the default model.
	Model string
}

// Presets are the provider names the agent knows. Any OpenAI-compatible
// server (llama.cpp, vLLM, LM Studio) works as "openai" with its base_url.
var presets = map[string]Preset{
	"gemini": {
		Name: "gemini", Family: FamilyGemini, URLEnv: "GOOGLE_GEMINI_BASE_URL",
		KeyEnvs: []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"}, Model: "gemini-2.5-flash",
	},
	"openai": {
		Name: "openai", Family: FamilyOpenAI, BaseURL: OpenAIURL, URLEnv: "OPENAI_BASE_URL",
		KeyEnvs: []string{"OPENAI_API_KEY"}, Model: "gpt-4.1-mini",
	},
	"openrouter": {
		Name: "openrouter", Family: FamilyOpenAI, BaseURL: "https://openrouter.ai/api/v1", URLEnv: "OPENAI_BASE_URL",
		KeyEnvs: []string{"OPENROUTER_API_KEY"}, Model: "google/gemini-2.5-flash",
	},
	"venice": {
		Name: "venice", Family: FamilyOpenAI, BaseURL: "https://api.venice.ai/api/v1", URLEnv: "OPENAI_BASE_URL",
		KeyEnvs: []string{"VENICE_API_KEY"}, Model: "llama-3.3-70b",
	},
	"ollama": {
		Name: "ollama", Family: FamilyOpenAI, BaseURL: OllamaURL, URLEnv: "OPENAI_BASE_URL",
		KeyEnvs: []string{"OLLAMA_API_KEY"}, NoKey: true, Model: "qwen3",
	},
	"anthropic": {
		Name: "anthropic", Family: FamilyAnthropic, URLEnv: "ANTHROPIC_BASE_URL",
		KeyEnvs: []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"}, Model: "claude-sonnet-4-5",
	},
}

// Well-known addresses.
const (
	OpenAIURL = "https://api.openai.com/v1"
	OllamaURL = "http://localhost:11434/v1"
)

// LookupPreset returns the preset called name.
func LookupPreset(name string) (Preset, bool) {
	p, ok := presets[strings.ToLower(name)]
	return p, ok
}

// PresetNames lists the known provider names, sorted.
func PresetNames() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// autoOrder is the order in which providers are tried when none is
// configured: the first whose key is set wins.
var autoOrder = []string{"gemini", "openai", "anthropic", "openrouter", "venice"}

// ErrNoProvider is returned by Load when no provider is configured, no
// key of a known provider is set and no local Ollama answers. Its message
// lists the ways to configure one.
var ErrNoProvider = errors.New(strings.TrimSpace(`
no model provider is configured. Any one of these works:
  - export GEMINI_API_KEY=...      (Gemini, the default; GOOGLE_API_KEY also works)
  - export OPENAI_API_KEY=...      (OpenAI)
  - export ANTHROPIC_API_KEY=...   (Anthropic)
  - export OPENROUTER_API_KEY=... or VENICE_API_KEY=...  (OpenRouter, Venice)
  - start Ollama on localhost:11434 (local models, no key)
  - export OPENAI_BASE_URL=http://host:port/v1 for llama.cpp, vLLM or any
    OpenAI-compatible server
  - or write provider = "...", model = "..." in .agent/config.toml or
    ~/.config/agent/config.toml
To see the agent work without any provider, run: agent demo-chat-tools`))

// ErrUnknownProvider marks a provider name the agent does not know.
var ErrUnknownProvider = errors.New("unknown provider")

// unknownProvider is the error for a provider name the agent does not know.
func unknownProvider(name, origin string) error {
	return fmt.Errorf("%w %q (from %s): use one of %s", ErrUnknownProvider, name, origin, strings.Join(PresetNames(), ", "))
}

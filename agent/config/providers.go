package config

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// The wire protocols a provider speaks; each has one llm subpackage.
const (
	FamilyGemini    = "gemini"
	FamilyOpenAI    = "openai"
	FamilyAnthropic = "anthropic"
	// FamilyOllama is Ollama's native chat API, which sets the window per
	// request; its OpenAI-compatible one cannot.
	FamilyOllama = "ollama"
)

// Preset is what the agent knows about a provider name. The presets are
// the one list of provider names: flags, completions, messages and the
// README's table are written from it.
type Preset struct {
	Name string
	// Title is the name people know the service by ("OpenRouter").
	Title  string
	Family string // FamilyGemini, FamilyOpenAI, FamilyAnthropic or FamilyOllama
	// BaseURL is the preset's address; "" leaves it to the SDK.
	BaseURL string
	// URLEnv is the SDK's variable for the address; when set it wins over
	// BaseURL (but not over base_url set for the agent by flag or env).
	URLEnv string
	// bareHost means URLEnv may name just a host and port, with the
	// scheme and port left out as Ollama's OLLAMA_HOST allows
	// ("0.0.0.0", "host:port").
	bareHost bool
	// KeyEnvs are the variables the key is read from, first set wins.
	KeyEnvs []string
	// NoKey means the server needs no key: a server on the user's own
	// machine, probed when no key is set, whose window is asked of it.
	NoKey bool
	// Model is the default model.
	Model string
	// SlashModels means the provider names models with a slash in them
	// (a router's google/gemini-2.5-flash, a local server's hub names), so
	// /model PREFIX/NAME is a model of it even when PREFIX is no provider.
	SlashModels bool
}

// presets are the provider names the agent knows, in the order they are
// tried when none is configured (see autoProvider) and listed in help:
// hosted services by their key first, then local servers. Any other
// OpenAI-compatible server works as "openai" with its base_url.
var presets = []Preset{
	{
		Name: "gemini", Title: "Gemini", Family: FamilyGemini, URLEnv: "GOOGLE_GEMINI_BASE_URL",
		KeyEnvs: []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"}, Model: "gemini-2.5-flash",
	},
	{
		Name: "openai", Title: "OpenAI", Family: FamilyOpenAI, BaseURL: OpenAIURL, URLEnv: "OPENAI_BASE_URL",
		KeyEnvs: []string{"OPENAI_API_KEY"}, Model: "gpt-4.1-mini",
	},
	{
		Name: "anthropic", Title: "Anthropic", Family: FamilyAnthropic, URLEnv: "ANTHROPIC_BASE_URL",
		KeyEnvs: []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"}, Model: "claude-sonnet-4-5",
	},
	{
		Name: "openrouter", Title: "OpenRouter", Family: FamilyOpenAI, BaseURL: "https://openrouter.ai/api/v1", URLEnv: "OPENAI_BASE_URL",
		KeyEnvs: []string{"OPENROUTER_API_KEY"}, Model: "google/gemini-2.5-flash", SlashModels: true,
	},
	{
		Name: "venice", Title: "Venice", Family: FamilyOpenAI, BaseURL: "https://api.venice.ai/api/v1", URLEnv: "OPENAI_BASE_URL",
		KeyEnvs: []string{"VENICE_API_KEY"}, Model: "llama-3.3-70b", SlashModels: true,
	},
	{
		Name: "ollama", Title: "Ollama", Family: FamilyOllama, BaseURL: OllamaURL, URLEnv: "OLLAMA_HOST", bareHost: true,
		KeyEnvs: []string{"OLLAMA_API_KEY"}, NoKey: true, Model: "qwen3", SlashModels: true,
	},
	{
		// llama-server serves the one model it was started with, whatever
		// the request names.
		Name: "llamacpp", Title: "llama.cpp", Family: FamilyOpenAI, BaseURL: "http://127.0.0.1:8080/v1", URLEnv: "OPENAI_BASE_URL",
		NoKey: true, Model: "default", SlashModels: true,
	},
	{
		Name: "lmstudio", Title: "LM Studio", Family: FamilyOpenAI, BaseURL: "http://127.0.0.1:1234/v1", URLEnv: "OPENAI_BASE_URL",
		NoKey: true, Model: "default", SlashModels: true,
	},
}

// Well-known addresses.
const (
	OpenAIURL = "https://api.openai.com/v1"
	OllamaURL = "http://127.0.0.1:11434"
)

// LookupPreset returns the preset called name.
func LookupPreset(name string) (Preset, bool) {
	name = strings.ToLower(name)
	for _, p := range presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// keyEnvs are the variables the named provider's key comes from, first
// set wins: its preset's, the one list of them (chat, speech and
// embeddings alike); none for a name that is no preset.
func keyEnvs(name string) []string {
	p, _ := LookupPreset(name)
	return p.KeyEnvs
}

// PresetNames lists the known provider names, the default first.
func PresetNames() []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.Name
	}
	return names
}

// ProviderFlagHelp is the help of a --provider flag: the names it takes.
func ProviderFlagHelp() string {
	return "model provider (" + strings.Join(PresetNames(), ", ") + ")"
}

// KeyVariables names the variables API keys are read from, preset by
// preset ("GEMINI_API_KEY or GOOGLE_API_KEY, OPENAI_API_KEY, ..."), for
// help texts.
func KeyVariables() string {
	var parts []string
	for _, p := range presets {
		if !p.NoKey {
			parts = append(parts, strings.Join(p.KeyEnvs, " or "))
		}
	}
	return strings.Join(parts, ", ")
}

// ErrNoProvider is returned by Load when no provider is configured, no
// key of a known provider is set and no local server answers. Its message
// lists the ways to configure one.
var ErrNoProvider = errors.New(noProviderText())

// noProviderText lists, from the presets, every way to configure a
// provider.
func noProviderText() string {
	var b strings.Builder
	b.WriteString("no model provider is configured. Any one of these works:\n")
	var local []string
	for i, p := range presets {
		if p.NoKey {
			host := p.BaseURL
			if u, err := url.Parse(p.BaseURL); err == nil {
				host = u.Host
			}
			local = append(local, p.Title+" on "+host)
			continue
		}
		note := p.Title
		if i == 0 {
			note += ", the default"
		}
		if len(p.KeyEnvs) > 1 {
			note += "; " + strings.Join(p.KeyEnvs[1:], ", ") + " also works"
		}
		fmt.Fprintf(&b, "  - export %-25s (%s)\n", p.KeyEnvs[0]+"=...", note)
	}
	fmt.Fprintf(&b, "  - start %s\n    (local models, no key)\n", strings.Join(local, ", "))
	b.WriteString(`  - export OPENAI_BASE_URL=http://host:port/v1 for vLLM or any other
    OpenAI-compatible server
  - or write provider = "...", model = "..." in .agent/config.toml or
    ~/.config/agent/config.toml
To see the agent work without any provider, run: agent demo-chat-tools`)
	return b.String()
}

// ErrUnknownProvider marks a provider name the agent does not know.
var ErrUnknownProvider = errors.New("unknown provider")

// unknownProvider is the error for a provider name the agent does not know.
func unknownProvider(name, origin string) error {
	return fmt.Errorf("%w %q (from %s): use one of %s", ErrUnknownProvider, name, origin, strings.Join(PresetNames(), ", "))
}

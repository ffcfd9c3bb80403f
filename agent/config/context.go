package config

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// ModelConfig is what [models."name"] sets for one model.
type ModelConfig struct {
	// ContextWindow is the model's window in tokens; 0 leaves it to the
	// top-level setting, the built-in table or the server.
	ContextWindow int    `toml:"context_window"`
	Reasoning     string `toml:"reasoning"` // off, low, medium or high; "" inherits
	Price         Price  `toml:"price"`
}

// Price is what a model costs, in dollars per million tokens.
type Price struct {
	Input       float64 `toml:"input"`
	Output      float64 `toml:"output"`
	CachedInput float64 `toml:"cached_input"` // prompt tokens read from the cache
	CacheWrite  float64 `toml:"cache_write"`  // prompt tokens written to the cache (Anthropic)
}

// Set reports whether any price is configured.
func (p Price) Set() bool { return p != Price{} }

// Cost is the price of a call: in prompt tokens in all, of which cached
// were read from and written to the cache, and out output tokens. A
// cache price left at 0 falls back to the input price.
func (p Price) Cost(in, cached, written, out int) float64 {
	cachedPrice, writePrice := p.CachedInput, p.CacheWrite
	if cachedPrice == 0 {
		cachedPrice = p.Input
	}
	if writePrice == 0 {
		writePrice = p.Input
	}
	plain := max(in-cached-written, 0)
	return (float64(plain)*p.Input + float64(cached)*cachedPrice + float64(written)*writePrice + float64(out)*p.Output) / 1e6
}

// builtinWindows are the windows of the providers' default models and
// their close relatives, by model name prefix (longest first). They
// change with new models: context_window overrides them.
var builtinWindows = []struct {
	prefix string
	tokens int
}{
	{"gemini-2.5-", 1048576},
	{"gemini-2.0-", 1048576},
	{"google/gemini-2.5-", 1048576},
	{"gpt-4.1", 1047576},
	{"gpt-5", 400000},
	{"gpt-4o", 128000},
	{"claude-", 200000},
	{"anthropic/claude-", 200000},
	{"llama-3.3-70b", 65536}, // Venice's default
}

// ModelSettings returns the [models."name"] entry of the configured model.
func (c *Config) ModelSettings() ModelConfig { return c.Models[c.Model] }

// Window is the configured or built-in context window of the model and
// where it comes from; 0 when only the server can tell (see
// DetectWindow).
func (c *Config) Window() (tokens int, source string) {
	if w := c.ModelSettings().ContextWindow; w > 0 {
		return w, c.modelOrigin("context_window")
	}
	if c.ContextWindow > 0 {
		return c.ContextWindow, c.Origin("context_window")
	}
	if c.Provider == "ollama" || c.customServer() {
		return 0, ""
	}
	for _, b := range builtinWindows {
		if strings.HasPrefix(c.Model, b.prefix) {
			return b.tokens, "built in for " + c.Model
		}
	}
	return 0, ""
}

// modelOrigin is where [models."name"] field came from: TOML quotes a
// name with dots in the key it reports.
func (c *Config) modelOrigin(field string) string {
	if o := c.Origins["models."+strconv.Quote(c.Model)+"."+field]; o != "" {
		return o
	}
	return c.Origin("models." + c.Model + "." + field)
}

// EffectiveReasoning is the reasoning level for the model: its own, else
// the top-level one ("" leaves the provider's default).
func (c *Config) EffectiveReasoning() string {
	if r := c.ModelSettings().Reasoning; r != "" {
		return r
	}
	return c.Reasoning
}

// customServer reports an OpenAI-compatible server at an address of the
// user's own (llama.cpp, vLLM, LM Studio), whose window no table knows.
func (c *Config) customServer() bool {
	if c.Family != FamilyOpenAI || c.BaseURL == "" {
		return false
	}
	for _, p := range presets {
		if p.BaseURL != "" && strings.TrimRight(c.BaseURL, "/") == p.BaseURL {
			return false
		}
	}
	return true
}

// AssumedWindow is the window assumed for an OpenAI-compatible server
// that does not say: small enough for most local setups.
const AssumedWindow = 32768

// WindowInfo is the context window found for the model.
type WindowInfo struct {
	Tokens int
	Source string // "config file ...", "ollama /api/ps", "assumed", ...
	// Note is a line for the user when the window is a guess.
	Note string
	// Hint says how to get a larger window, for the error when the
	// window is too small.
	Hint string
}

// DetectWindow finds the model's window: configured or built in; else,
// for Ollama, what the server loaded (/api/ps) or will load (/api/show
// and Ollama's memory rule); for llama.cpp, /props; for other
// OpenAI-compatible servers AssumedWindow, with a note. env is the
// environment (OLLAMA_CONTEXT_LENGTH). Each question to a server is
// bounded by ProbeTimeout.
func DetectWindow(ctx context.Context, client *http.Client, c *Config, env map[string]string) WindowInfo {
	if w, src := c.Window(); w > 0 {
		return WindowInfo{Tokens: w, Source: src}
	}
	if client == nil {
		client = &http.Client{}
	}
	root := strings.TrimSuffix(strings.TrimRight(c.BaseURL, "/"), "/v1")
	if c.Provider == "ollama" {
		return ollamaWindow(ctx, client, root, c.Model, env)
	}
	if !c.customServer() {
		return WindowInfo{}
	}
	var props struct {
		Settings struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if getJSON(ctx, client, http.MethodGet, root+"/props", nil, &props) && props.Settings.NCtx > 0 {
		return WindowInfo{Tokens: props.Settings.NCtx, Source: "llama.cpp /props",
			Hint: "start llama-server with a larger --ctx-size"}
	}
	return WindowInfo{Tokens: AssumedWindow, Source: "assumed",
		Note: fmt.Sprintf("the server at %s does not say its context window: %d tokens assumed; set context_window in the configuration", c.BaseURL, AssumedWindow)}
}

// ollamaDefaultWindow is the window Ollama gives a model on a machine with
// less than 24 GiB of VRAM (its smallest rule), when nothing sets one.
const ollamaDefaultWindow = 4096

func ollamaWindow(ctx context.Context, client *http.Client, root, model string, env map[string]string) WindowInfo {
	hint := "start the Ollama server with OLLAMA_CONTEXT_LENGTH=16384 (or more) for a larger window"
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if getJSON(ctx, client, http.MethodGet, root+"/api/ps", nil, &ps) {
		for _, m := range ps.Models {
			if m.ContextLength > 0 && (sameOllamaModel(m.Name, model) || sameOllamaModel(m.Model, model)) {
				return WindowInfo{Tokens: m.ContextLength, Source: "ollama /api/ps (loaded)", Hint: hint}
			}
		}
	}
	// Not loaded yet: the window will be Ollama's rule, bounded by the
	// model's own maximum.
	window, src := ollamaDefaultWindow, "Ollama's default below 24 GiB of VRAM"
	if v, err := strconv.Atoi(strings.TrimSpace(env["OLLAMA_CONTEXT_LENGTH"])); err == nil && v > 0 {
		window, src = v, "OLLAMA_CONTEXT_LENGTH"
	}
	var show struct {
		ModelInfo map[string]any `json:"model_info"`
	}
	body, _ := json.Marshal(map[string]string{"model": model})
	if getJSON(ctx, client, http.MethodPost, root+"/api/show", body, &show) {
		for k, v := range show.ModelInfo {
			if n, ok := v.(float64); ok && strings.HasSuffix(k, ".context_length") && n > 0 && int(n) < window {
				window, src = int(n), "the model's maximum (ollama /api/show)"
			}
		}
	}
	return WindowInfo{Tokens: window, Source: src + ", model not loaded yet", Hint: hint}
}

// sameOllamaModel compares model names, "qwen3" being "qwen3:latest".
func sameOllamaModel(a, b string) bool {
	norm := func(s string) string {
		if !strings.Contains(s, ":") {
			return s + ":latest"
		}
		return s
	}
	return a != "" && norm(a) == norm(b)
}

// getJSON asks url and decodes a 200 answer's JSON into v.
func getJSON(ctx context.Context, client *http.Client, method, url string, body []byte, v any) bool {
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return false
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return false
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(v) == nil
}

// validReasoning reports the reasoning levels.
func validReasoning(r string) bool {
	switch r {
	case "", "off", "low", "medium", "high":
		return true
	}
	return false
}

// validateContext checks the context settings.
func (c *Config) validateContext() error {
	if c.ContextWindow < 0 {
		return fmt.Errorf("context_window = %d (from %s): use a number of tokens, or 0 to leave it to the model", c.ContextWindow, c.Origin("context_window"))
	}
	if !validReasoning(c.Reasoning) {
		return fmt.Errorf("reasoning = %q (from %s): use off, low, medium or high", c.Reasoning, c.Origin("reasoning"))
	}
	for name, m := range c.Models {
		if m.ContextWindow < 0 {
			return fmt.Errorf("models.%q.context_window = %d: use a number of tokens", name, m.ContextWindow)
		}
		if !validReasoning(m.Reasoning) {
			return fmt.Errorf("models.%q.reasoning = %q: use off, low, medium or high", name, m.Reasoning)
		}
	}
	return nil
}

// writeContext prints the context settings for agent config.
func (c *Config) writeContext(b *strings.Builder, line func(key, value string)) {
	w, src := c.Window()
	switch {
	case c.ModelSettings().ContextWindow > 0 || c.ContextWindow > 0:
		line("context_window", strconv.Itoa(w))
	case w > 0:
		fmt.Fprintf(b, "%-44s # %s\n", "context_window = 0", "default: "+strconv.Itoa(w)+" tokens, "+src)
	case c.Provider == "ollama":
		fmt.Fprintf(b, "%-44s # %s\n", "context_window = 0", "default: asked of the Ollama server (/api/ps, /api/show) at start")
	case c.customServer():
		fmt.Fprintf(b, "%-44s # default: asked of the server (llama.cpp /props)\n", "context_window = 0")
		fmt.Fprintf(b, "# note: an OpenAI-compatible server that does not say its window gets %d tokens; set context_window if yours differs\n", AssumedWindow)
	default:
		fmt.Fprintf(b, "%-44s # %s\n", "context_window = 0", "default: unknown, nothing is cut")
	}
	line("reasoning", strconv.Quote(c.Reasoning))
	if p := c.ModelSettings().Price; p.Set() {
		fmt.Fprintf(b, "# price of %s per million tokens: input $%g, output $%g, cached input $%g, cache write $%g\n",
			c.Model, p.Input, p.Output, p.CachedInput, p.CacheWrite)
	}
}

package config

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// ModelConfig is what [models."name"] sets for one model.
type ModelConfig struct {
	// ContextWindow is the model's window in tokens; 0 leaves it to the
	// top-level setting, the built-in table or the server.
	ContextWindow int    `toml:"context_window"`
	Reasoning     string `toml:"reasoning"` // off, low, medium or high; "" inherits
	Price         Price  `toml:"price"`
	Images        *bool  `toml:"images"` // reads images; unset inherits (images.go)
}

// keepModelFields puts back, in each [models."name"] table of the file
// just decoded (md), the fields it leaves out as before had them: TOML
// decoding replaces a whole entry, which would drop the user's price, or
// their reasoning = "off", without the file naming either.
func (c *Config) keepModelFields(before *Config, md toml.MetaData) {
	for name, m := range c.Models {
		old, ok := before.Models[name]
		if !ok || !md.IsDefined("models", name) {
			continue
		}
		keepUndefined(reflect.ValueOf(&m).Elem(), reflect.ValueOf(old), md, toml.Key{"models", name})
		c.Models[name] = m
	}
}

// keepUndefined copies into the struct dst the fields of src that the
// file (md) does not define under key.
func keepUndefined(dst, src reflect.Value, md toml.MetaData, key toml.Key) {
	for i := range dst.NumField() {
		k := append(key[:len(key):len(key)], tomlName(dst.Type().Field(i)))
		switch {
		case !md.IsDefined(k...):
			dst.Field(i).Set(src.Field(i))
		case dst.Field(i).Kind() == reflect.Struct:
			keepUndefined(dst.Field(i), src.Field(i), md, k)
		}
	}
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
// where it comes from; 0 when it is the server's to tell (ServerWindow)
// or nobody knows.
func (c *Config) Window() (tokens int, source string) {
	if w := c.ModelSettings().ContextWindow; w > 0 {
		return w, c.modelOrigin("context_window")
	}
	if c.ContextWindow > 0 {
		return c.ContextWindow, c.Origin("context_window")
	}
	if c.ServerWindow() {
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

// ServerWindow reports a server whose window no table knows, so that the
// model asks it (llm.Windowed): a local server of a preset (Ollama sets
// it per request; llama.cpp and LM Studio say theirs), or an
// OpenAI-compatible server at an address of the user's own.
func (c *Config) ServerWindow() bool {
	if p, ok := LookupPreset(c.Provider); ok && p.NoKey {
		return true
	}
	return c.customServer()
}

// customServer reports an OpenAI-compatible server at an address of the
// user's own (vLLM, llama.cpp elsewhere), not a preset's.
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

// ValidReasoning reports whether r is a reasoning level ("" inherits).
func ValidReasoning(r string) bool {
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
	if !ValidReasoning(c.Reasoning) {
		return fmt.Errorf("reasoning = %q (from %s): use off, low, medium or high", c.Reasoning, c.Origin("reasoning"))
	}
	for name, m := range c.Models {
		if m.ContextWindow < 0 {
			return fmt.Errorf("models.%q.context_window = %d: use a number of tokens", name, m.ContextWindow)
		}
		if !ValidReasoning(m.Reasoning) {
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
	case c.Family == FamilyOllama:
		fmt.Fprintf(b, "%-44s # %s\n", "context_window = 0", "default: num_ctx sized to each conversation, within the model's maximum (/api/show) and 32768")
	case c.ServerWindow():
		fmt.Fprintf(b, "%-44s # default: asked of the server (llama.cpp /props, LM Studio's model list)\n", "context_window = 0")
		fmt.Fprintf(b, "# note: an OpenAI-compatible server that does not say its window gets 32768 tokens; set context_window if yours differs\n")
	default:
		fmt.Fprintf(b, "%-44s # %s\n", "context_window = 0", "default: unknown, nothing is cut")
	}
	line("reasoning", strconv.Quote(c.Reasoning))
	c.writeImages(b, line)
	if p := c.ModelSettings().Price; p.Set() {
		fmt.Fprintf(b, "# price of %s per million tokens: input $%g, output $%g, cached input $%g, cache write $%g\n",
			c.Model, p.Input, p.Output, p.CachedInput, p.CacheWrite)
	}
}

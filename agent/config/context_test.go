package config

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

func TestContextSettings(t *testing.T) {
	user := `
context_window = 64000
reasoning = "low"

[models."gpt-4.1-mini"]
context_window = 500000
reasoning = "high"
price = { input = 0.4, output = 1.6, cached_input = 0.1 }
`
	env := map[string]string{"OPENAI_API_KEY": "sk-example-example-example"}
	c, err := Load(Input{Files: files(t, user, ""), Env: env, Flags: Flags{Provider: "openai"}, Probe: noProbe})
	if err != nil {
		t.Fatal(err)
	}
	if w, src := c.Window(); w != 500000 || !strings.Contains(src, "config.toml") {
		t.Errorf("Window() = %d, %q; want the model's own 500000 from the file", w, src)
	}
	if r := c.EffectiveReasoning(); r != "high" {
		t.Errorf("reasoning %q, want the model's high", r)
	}
	p := c.ModelSettings().Price
	if got := p.Cost(1_000_000, 500_000, 0, 1_000_000); got < 1.849 || got > 1.851 {
		t.Errorf("cost %v, want 0.2 + 0.05 + 1.6 = 1.85", got)
	}
	c.Model = "another"
	if w, _ := c.Window(); w != 64000 {
		t.Errorf("another model's window %d, want the top-level 64000", w)
	}
	if r := c.EffectiveReasoning(); r != "low" {
		t.Errorf("another model's reasoning %q, want the top-level low", r)
	}
}

func TestBuiltinWindows(t *testing.T) {
	for _, c := range []struct{ provider, model string }{{"gemini", "gemini-2.5-flash"}, {"openai", "gpt-4.1-mini"}, {"anthropic", "claude-sonnet-4-5"}} {
		cfg := Config{Provider: c.provider, Model: c.model, Family: presetFamily(c.provider), Origins: map[string]string{}}
		if w, _ := cfg.Window(); w < 200000 {
			t.Errorf("%s/%s: window %d, want the built-in value", c.provider, c.model, w)
		}
	}
}

func presetFamily(name string) string {
	for _, p := range presets {
		if p.Name == name {
			return p.Family
		}
	}
	return ""
}

func TestBadContextSettings(t *testing.T) {
	for _, body := range []string{`reasoning = "extreme"`, `context_window = -1`, "[models.x]\nreasoning = \"max\""} {
		_, err := Load(Input{Files: files(t, body, ""), Env: map[string]string{"OPENAI_API_KEY": "k"}, Probe: noProbe})
		if err == nil {
			t.Errorf("%s: no error", body)
		}
	}
}

func TestOllamaWindowLoaded(t *testing.T) {
	s := llmtest.NewOllamaServer(t, []llmtest.OllamaModel{{Name: "qwen3:latest", Loaded: 2048, Max: 40960}})
	c := &Config{Provider: "ollama", Model: "qwen3", BaseURL: s.URL, Family: FamilyOpenAI, Origins: map[string]string{}}
	w := DetectWindow(t.Context(), nil, c, nil)
	if w.Tokens != 2048 || !strings.Contains(w.Source, "/api/ps") || !strings.Contains(w.Hint, "OLLAMA_CONTEXT_LENGTH") {
		t.Errorf("DetectWindow = %+v, want 2048 from /api/ps and a hint naming OLLAMA_CONTEXT_LENGTH", w)
	}
}

func TestOllamaWindowNotLoaded(t *testing.T) {
	s := llmtest.NewOllamaServer(t, []llmtest.OllamaModel{{Name: "qwen3:latest", Max: 40960}, {Name: "tiny:latest", Max: 2048}})
	c := &Config{Provider: "ollama", Model: "qwen3", BaseURL: s.URL, Family: FamilyOpenAI, Origins: map[string]string{}}
	if w := DetectWindow(t.Context(), nil, c, nil); w.Tokens != ollamaDefaultWindow {
		t.Errorf("not loaded, no OLLAMA_CONTEXT_LENGTH: %+v, want Ollama's default %d", w, ollamaDefaultWindow)
	}
	if w := DetectWindow(t.Context(), nil, c, map[string]string{"OLLAMA_CONTEXT_LENGTH": "16384"}); w.Tokens != 16384 {
		t.Errorf("OLLAMA_CONTEXT_LENGTH=16384: %+v", w)
	}
	c.Model = "tiny"
	if w := DetectWindow(t.Context(), nil, c, map[string]string{"OLLAMA_CONTEXT_LENGTH": "16384"}); w.Tokens != 2048 || !strings.Contains(w.Source, "/api/show") {
		t.Errorf("a model whose maximum is 2048: %+v, want its maximum from /api/show", w)
	}
}

func TestLlamaCppAndOtherServers(t *testing.T) {
	llama := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/props" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(`{"default_generation_settings":{"n_ctx":12288,"temperature":0.8},"total_slots":1}`))
	}))
	defer llama.Close()
	c := &Config{Provider: "openai", Model: "local", BaseURL: llama.URL + "/v1", Family: FamilyOpenAI, Origins: map[string]string{}}
	if w := DetectWindow(t.Context(), nil, c, nil); w.Tokens != 12288 || w.Source != "llama.cpp /props" {
		t.Errorf("llama.cpp: %+v, want n_ctx 12288", w)
	}
	other := httptest.NewServer(http.NotFoundHandler())
	defer other.Close()
	c.BaseURL = other.URL + "/v1"
	w := DetectWindow(t.Context(), nil, c, nil)
	if w.Tokens != AssumedWindow || !strings.Contains(w.Note, "32768 tokens assumed") {
		t.Errorf("a server that does not say: %+v, want %d assumed, with a note", w, AssumedWindow)
	}
	var b strings.Builder
	if err := c.Write(&b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "32768 tokens"); n != 1 {
		t.Errorf("agent config says the 32k assumption %d times, want once:\n%s", n, b.String())
	}
}

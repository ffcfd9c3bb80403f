package config

import (
	"strings"
	"testing"
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

// TestServerWindow: the window of a local server's preset or of a server
// at the user's own address is the server's to tell (the model asks it),
// and agent config says so, with the 32k assumption once.
func TestServerWindow(t *testing.T) {
	for _, tc := range []struct {
		flags Flags
		want  bool
	}{
		{Flags{Provider: "ollama"}, true},
		{Flags{Provider: "llamacpp"}, true},
		{Flags{Provider: "lmstudio"}, true},
		{Flags{Provider: "openai", BaseURL: "http://127.0.0.1:8000/v1"}, true},
		{Flags{Provider: "openai"}, false},
		{Flags{Provider: "openrouter"}, false},
	} {
		c, err := Load(Input{Flags: tc.flags, Probe: noProbe})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.ServerWindow(); got != tc.want {
			t.Errorf("%+v: ServerWindow() = %v, want %v", tc.flags, got, tc.want)
		}
		if w, _ := c.Window(); tc.want && w != 0 {
			t.Errorf("%+v: Window() = %d, want 0 (the server's to tell)", tc.flags, w)
		}
	}
	c, err := Load(Input{Flags: Flags{Provider: "openai", BaseURL: "http://127.0.0.1:8000/v1"}, Probe: noProbe})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := c.Write(&b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "32768 tokens"); n != 1 {
		t.Errorf("agent config says the 32k assumption %d times, want once:\n%s", n, b.String())
	}
}

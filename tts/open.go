package tts

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Settings choose and configure the engines Open builds.
type Settings struct {
	// Provider is the engine to prefer: "gemini", "espeak" (or
	// "espeak-ng"), or "" for Gemini when a key is set, else espeak-ng.
	Provider string
	// Voice is the preferred engine's default voice; "" keeps the
	// engine's own default.
	Voice string
	// Concurrency bounds the requests of one text; 0 means 3.
	Concurrency int

	GeminiKey     string // "" leaves Gemini out
	GeminiBaseURL string // "" leaves the address to the SDK (GOOGLE_GEMINI_BASE_URL)
	GeminiModel   string // "" means DefaultGeminiModel
	HTTPClient    *http.Client

	EspeakPath string // "" looks espeak-ng up with LookPath
	// LookPath finds the programs the engines run (espeak-ng);
	// exec.LookPath when nil.
	LookPath func(name string) (string, error)
	// Env is the environment of those programs; nil means the agent's.
	Env []string
}

// ProviderName returns the engine name for what a user typed ("Gemini",
// "espeak-ng"), or "" when it names no engine.
func ProviderName(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "gemini":
		return "gemini"
	case "espeak", "espeak-ng":
		return "espeak"
	}
	return ""
}

// Available reports which engines can run, preferred first: "gemini"
// when a Gemini key is set, "espeak" when the espeak-ng program is
// installed (found by lookPath; exec.LookPath when nil). It starts
// nothing and makes no request.
func Available(geminiKey string, lookPath func(string) (string, error)) []string {
	var out []string
	if geminiKey != "" {
		out = append(out, "gemini")
	}
	if _, err := findEspeak(lookPath); err == nil {
		out = append(out, "espeak")
	}
	return out
}

// Open builds a Speaker for every engine that can run, the preferred one
// first. With none it returns ErrNoEngine, saying what to set or install;
// a Provider that cannot run is an error too, rather than a silent switch
// to another voice.
func Open(ctx context.Context, s Settings) ([]*Speaker, error) {
	want := ProviderName(s.Provider)
	if s.Provider != "" && want == "" {
		return nil, fmt.Errorf("unknown speech provider %q: use gemini or espeak", s.Provider)
	}
	explicit := want != ""
	if want == "" && s.GeminiKey == "" {
		want = "espeak"
	}
	voice := func(name string) string {
		if want == "" || want == name {
			return s.Voice
		}
		return ""
	}
	var out []*Speaker
	var errs []error
	add := func(name string, e Engine, err error) {
		if err != nil {
			if explicit && want == name || !errors.Is(err, ErrNoEngine) {
				errs = append(errs, err)
			}
			return
		}
		sp := &Speaker{Engine: e, Concurrency: s.Concurrency}
		if name == want {
			out = append([]*Speaker{sp}, out...)
		} else {
			out = append(out, sp)
		}
	}
	g, err := NewGemini(ctx, GeminiOptions{APIKey: s.GeminiKey, BaseURL: s.GeminiBaseURL, Model: s.GeminiModel, Voice: voice("gemini"), HTTPClient: s.HTTPClient})
	add("gemini", g, err)
	es, err := NewEspeak(EspeakOptions{Path: s.EspeakPath, Voice: voice("espeak"), LookPath: s.LookPath, Env: s.Env})
	if err == nil && voice("espeak") != "" {
		_, err = es.Voice(ctx, "")
	}
	add("espeak", es, err)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: set GEMINI_API_KEY for Gemini's voices, or install espeak-ng for an offline voice (apt-get install espeak-ng)", ErrNoEngine)
	}
	return out, nil
}

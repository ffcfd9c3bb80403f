package openai

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/agentcli/agent/agent/llm"
)

// AssumedWindow is the window assumed for a server that does not say
// its own: small enough for most local setups.
const AssumedWindow = 32768

// lmStudioDefault is the context length LM Studio loads a model with
// when nothing else is set.
const lmStudioDefault = 4096

var _ llm.Windowed = (*Model)(nil)

// Window asks a self-hosted server (Options.AskWindow) for its window:
// llama.cpp's GET /props (default_generation_settings.n_ctx), else LM
// Studio's GET /api/v0/models (the model's loaded_context_length, or its
// default when the model is not loaded yet), both at once; a server that
// says neither gets AssumedWindow, with a note. need is ignored: these
// servers fix the window when they load the model. A hosted service is
// not asked: its window comes from the configuration.
func (m *Model) Window(ctx context.Context, need int) llm.Window {
	if !m.o.AskWindow {
		return llm.Window{}
	}
	root := strings.TrimSuffix(strings.TrimRight(m.o.BaseURL, "/"), "/v1")
	var wg sync.WaitGroup
	var props, studio llm.Window
	wg.Add(2)
	go func() { defer wg.Done(); props = llamaCppWindow(ctx, m.hc, root) }()
	go func() { defer wg.Done(); studio = lmStudioWindow(ctx, m.hc, root, m.o.Model) }()
	wg.Wait()
	switch {
	case props.Tokens > 0:
		return props
	case studio.Tokens > 0:
		return studio
	}
	return llm.Window{Tokens: AssumedWindow, Source: "assumed",
		Note: fmt.Sprintf("the server at %s does not say its context window: %d tokens assumed; set context_window in the configuration", m.o.BaseURL, AssumedWindow)}
}

func llamaCppWindow(ctx context.Context, hc *http.Client, root string) llm.Window {
	var props struct {
		Settings struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if llm.AskJSON(ctx, hc, http.MethodGet, root+"/props", nil, &props) != nil || props.Settings.NCtx <= 0 {
		return llm.Window{}
	}
	return llm.Window{Tokens: props.Settings.NCtx, Source: "llama.cpp /props",
		Hint: "start llama-server with a larger --ctx-size (-c)"}
}

func lmStudioWindow(ctx context.Context, hc *http.Client, root, model string) llm.Window {
	var list struct {
		Data []struct {
			ID     string `json:"id"`
			State  string `json:"state"`
			Max    int    `json:"max_context_length"`
			Loaded int    `json:"loaded_context_length"`
		} `json:"data"`
	}
	if llm.AskJSON(ctx, hc, http.MethodGet, root+"/api/v0/models", nil, &list) != nil {
		return llm.Window{}
	}
	hint := "load the model in LM Studio with a larger context length"
	for _, d := range list.Data {
		if d.ID != model {
			continue
		}
		if d.State == "loaded" && d.Loaded > 0 {
			return llm.Window{Tokens: d.Loaded, Source: "LM Studio /api/v0/models (loaded)", Hint: hint}
		}
		w := lmStudioDefault
		if d.Max > 0 {
			w = min(w, d.Max)
		}
		return llm.Window{Tokens: w, Source: "LM Studio's default context length, model not loaded yet", Hint: hint}
	}
	return llm.Window{}
}

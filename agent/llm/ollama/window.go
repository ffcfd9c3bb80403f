package ollama

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/agentcli/agent/agent/llm"
)

// The rule num_ctx is chosen by.
const (
	// DefaultMaxNumCtx caps a chosen window: the KV cache of a window
	// grows with it (about 4 GiB at 32k tokens for an 8B model), and the
	// budget's elision and compaction keep a conversation inside it.
	DefaultMaxNumCtx = 32768
	// NumCtxStep is what a window is rounded up to, so that conversations
	// of about the same size ask for the same window and the server keeps
	// the model loaded between them.
	NumCtxStep = 4096
	// workRoom is the room a conversation needs beyond its system prompt
	// and a reply when the window is sized from a first request (a model
	// switched mid-chat): a few file reads and turns.
	workRoom = 8192
)

// ChooseNumCtx is the window to ask for: need rounded up to NumCtxStep,
// at most limit and at most the model's trained context (0: unknown). A
// model already loaded with a window that holds the need (or is the most
// it could get) and is within the limits keeps it: another num_ctx would
// make Ollama reload the model.
func ChooseNumCtx(need, trained, loaded, limit int) int {
	n := limit
	if need > 0 {
		n = min((need+NumCtxStep-1)/NumCtxStep*NumCtxStep, limit)
	}
	if trained > 0 {
		n = min(n, trained)
	}
	if loaded >= n && loaded <= limit && (trained == 0 || loaded <= trained) {
		n = loaded
	}
	return n
}

// Window chooses the conversation's window at the first call: the
// configured NumCtx, else ChooseNumCtx from need, the model's trained
// context (/api/show) and what the server has loaded (/api/ps). Later
// calls return the same window, whatever their need.
func (m *Model) Window(ctx context.Context, need int) llm.Window {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.chosen {
		m.win, m.chosen = m.choose(ctx, need), true
	}
	return m.win
}

func (m *Model) choose(ctx context.Context, need int) llm.Window {
	hint := "set context_window in the configuration for a larger num_ctx, if the machine's memory allows"
	if m.o.NumCtx > 0 {
		return llm.Window{Tokens: m.o.NumCtx, Source: "num_ctx from context_window", Hint: hint}
	}
	// Both questions at once: a start-up waits for one timeout at most.
	var trained, loaded int
	var wg sync.WaitGroup
	wg.Go(func() { trained = m.trainedContext(ctx) })
	wg.Go(func() { loaded = m.loadedContext(ctx) })
	wg.Wait()
	n := ChooseNumCtx(need, trained, loaded, m.o.MaxNumCtx)
	var why []string
	if need > 0 {
		why = append(why, fmt.Sprintf("the conversation needs about %d", need))
	}
	switch {
	case trained > 0:
		why = append(why, fmt.Sprintf("the model's maximum is %d", trained))
	default:
		why = append(why, "the model's maximum is unknown")
	}
	if n == loaded {
		why = append(why, "the model is loaded with it")
	}
	why = append(why, fmt.Sprintf("at most %d", m.o.MaxNumCtx))
	w := llm.Window{Tokens: n, Source: "Ollama num_ctx (" + strings.Join(why, ", ") + ")", Hint: hint}
	if trained > 0 && n == trained && n < need {
		w.Hint = fmt.Sprintf("the model %s was trained for %d tokens: choose one with a longer context", m.o.Model, trained)
	}
	return w
}

// trainedContext is the model's trained context from /api/show
// (model_info["<architecture>.context_length"]); 0 when not known.
func (m *Model) trainedContext(ctx context.Context) int {
	var show struct {
		ModelInfo map[string]any `json:"model_info"`
	}
	if llm.AskJSON(ctx, m.hc, http.MethodPost, m.root+"/api/show", map[string]string{"model": m.o.Model}, &show) != nil {
		return 0
	}
	if arch, ok := show.ModelInfo["general.architecture"].(string); ok {
		if n, ok := show.ModelInfo[arch+".context_length"].(float64); ok && n > 0 {
			return int(n)
		}
	}
	for k, v := range show.ModelInfo {
		if n, ok := v.(float64); ok && n > 0 && strings.HasSuffix(k, ".context_length") {
			return int(n)
		}
	}
	return 0
}

// loadedContext is the window the server has the model loaded with
// (/api/ps); 0 when it is not loaded.
func (m *Model) loadedContext(ctx context.Context) int {
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if llm.AskJSON(ctx, m.hc, http.MethodGet, m.root+"/api/ps", nil, &ps) != nil {
		return 0
	}
	for _, p := range ps.Models {
		if SameModel(p.Name, m.o.Model) || SameModel(p.Model, m.o.Model) {
			return p.ContextLength
		}
	}
	return 0
}

// SameModel compares model names as Ollama does: "qwen3" is
// "qwen3:latest".
func SameModel(a, b string) bool {
	norm := func(s string) string {
		if !strings.Contains(s, ":") {
			return s + ":latest"
		}
		return s
	}
	return a != "" && b != "" && norm(a) == norm(b)
}

package llmtest

import (
	"net/http"
	"strings"
	"testing"
)

// NewLlamaCppServer starts a fake llama.cpp server (llama-server) with a
// window of the given size: the OpenAI-compatible API under /v1 playing
// answers as NewOpenAIServer does, GET /props saying the window
// (default_generation_settings.n_ctx) and GET /v1/models naming its one
// model. Like the real server started with -c WINDOW, a prompt larger
// than the window loses its beginning, the system prompt first (see
// Request.Lost). s.URL ends in /v1.
func NewLlamaCppServer(t testing.TB, window int, answers ...Answer) *Server {
	t.Helper()
	return newServer(t, openaiProtocol{}, answers, func(s *Server) {
		s.window = func(Request) int { return window }
		s.extra = llamaCppEndpoints(window)
		s.extra["/api/v0/models"] = absent
	})
}

// llamaCppEndpoints are llama-server's side endpoints.
func llamaCppEndpoints(window int) map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"/props": func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, map[string]any{
				"default_generation_settings": map[string]any{"n_ctx": window, "params": map[string]any{"n_predict": -1}},
				"total_slots":                 1, "model_path": "/models/llmtest.gguf",
			})
		},
		"/v1/models": func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, map[string]any{"object": "list", "data": []any{
				map[string]any{"id": "llmtest.gguf", "object": "model", "owned_by": "llamacpp", "meta": map[string]any{"n_ctx_train": 131072}},
			}})
		},
	}
}

// LMStudioModel is a model a fake LM Studio has.
type LMStudioModel struct {
	ID string
	// Loaded is the context length it is loaded with; 0 means not
	// loaded (LM Studio loads it on the first request, with its default
	// context length, 4,096 tokens).
	Loaded int
	// Max is its trained context (max_context_length).
	Max int
}

// LMStudioDefaultContext is the context length LM Studio loads a model
// with when nothing else is set.
const LMStudioDefaultContext = 4096

// NewLMStudioServer starts a fake LM Studio: the OpenAI-compatible API
// under /v1 playing answers as NewOpenAIServer does, GET /v1/models, and
// its own GET /api/v0/models with each model's state,
// max_context_length and (when loaded) loaded_context_length. A request
// is served with the model's loaded context (the default when it is not
// loaded), losing the beginning of a larger prompt. s.URL ends in /v1.
func NewLMStudioServer(t testing.TB, models []LMStudioModel, answers ...Answer) *Server {
	t.Helper()
	return newServer(t, openaiProtocol{}, answers, func(s *Server) {
		s.window = func(req Request) int {
			for _, m := range models {
				if m.ID == req.Model && m.Loaded > 0 {
					return m.Loaded
				}
			}
			return LMStudioDefaultContext
		}
		s.extra = lmStudioEndpoints(models)
		s.extra["/props"] = absent
	})
}

// lmStudioEndpoints are LM Studio's model lists.
func lmStudioEndpoints(models []LMStudioModel) map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"/api/v0/models": func(w http.ResponseWriter, r *http.Request) {
			data := []any{}
			for _, m := range models {
				e := map[string]any{"id": m.ID, "object": "model", "type": "llm", "arch": "llama",
					"compatibility_type": "gguf", "state": "not-loaded", "max_context_length": m.Max}
				if m.Loaded > 0 {
					e["state"], e["loaded_context_length"] = "loaded", m.Loaded
				}
				data = append(data, e)
			}
			writeJSON(w, map[string]any{"object": "list", "data": data})
		},
		"/v1/models": func(w http.ResponseWriter, r *http.Request) {
			data := []any{}
			for _, m := range models {
				data = append(data, map[string]any{"id": m.ID, "object": "model", "owned_by": strings.SplitN(m.ID, "/", 2)[0]})
			}
			writeJSON(w, map[string]any{"object": "list", "data": data})
		},
	}
}

package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
)

// OllamaModel is a model a fake Ollama server has.
type OllamaModel struct {
	Name string // e.g. "qwen3:latest"
	// Loaded is the context length /api/ps reports for it; 0 means the
	// model is not loaded.
	Loaded int
	// Max is its maximum context, in /api/show's model_info.
	Max int
}

// NewOllamaServer starts a fake Ollama: the OpenAI-compatible API under
// /v1 (playing answers as NewOpenAIServer does) and the native /api/ps,
// /api/show and /api/tags for the given models. Requests to the native
// endpoints are answered but not recorded in Requests.
func NewOllamaServer(t testing.TB, models []OllamaModel, answers ...Answer) *Server {
	t.Helper()
	s := newServer(t, openaiProtocol{}, answers)
	s.extra = map[string]http.HandlerFunc{
		"/api/ps": func(w http.ResponseWriter, r *http.Request) {
			var loaded []any
			for _, m := range models {
				if m.Loaded > 0 {
					loaded = append(loaded, map[string]any{"name": m.Name, "model": m.Name, "size_vram": 5 << 30, "context_length": m.Loaded})
				}
			}
			writeJSON(w, map[string]any{"models": loaded})
		},
		"/api/tags": func(w http.ResponseWriter, r *http.Request) {
			var all []any
			for _, m := range models {
				all = append(all, map[string]any{"name": m.Name, "model": m.Name})
			}
			writeJSON(w, map[string]any{"models": all})
		},
		"/api/show": func(w http.ResponseWriter, r *http.Request) {
			var in struct {
				Model string `json:"model"`
				Name  string `json:"name"`
			}
			body, _ := io.ReadAll(r.Body)
			if r.Method != http.MethodPost || json.Unmarshal(body, &in) != nil {
				http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
				return
			}
			for _, m := range models {
				if sameModel(m.Name, in.Model) || sameModel(m.Name, in.Name) {
					writeJSON(w, map[string]any{"model_info": map[string]any{
						"general.architecture": "qwen3", "qwen3.context_length": m.Max,
					}})
					return
				}
			}
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"error":"model '%s' not found"}`, in.Model)
		},
	}
	return s
}

func sameModel(a, b string) bool { return b != "" && (a == b || a == b+":latest") }

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, mustJSON(v))
}

package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm"
)

// OllamaModel is a model a fake Ollama server has.
type OllamaModel struct {
	Name string // e.g. "qwen3:latest"
	// Arch is its architecture in /api/show's model_info ("llama" when
	// empty), which names the context_length key.
	Arch string
	// Loaded is the window the model is loaded with, as /api/ps reports
	// it; 0 means not loaded. Every chat request loads the model with the
	// window it is served with.
	Loaded int
	// Max is its trained context, /api/show's <arch>.context_length.
	Max int
	// Vision puts "vision" among its /api/show capabilities: it reads
	// images.
	Vision bool
}

// OllamaDefaultContext is the window Ollama gives a request that asks for
// none, on a machine with less than 24 GiB of VRAM and no
// OLLAMA_CONTEXT_LENGTH.
const OllamaDefaultContext = 4096

// OllamaServer is a fake Ollama on 127.0.0.1. It speaks the native API
// (POST /api/chat streamed as NDJSON, /api/show, /api/ps, /api/tags) and
// the OpenAI-compatible one under /v1, playing the scripted answers on
// either, and behaves like the real server where the agent depends on
// it: a chat request is served with the window its options.num_ctx asks
// for, else the server's default (OllamaDefaultContext); a prompt larger
// than that window loses its beginning, the system prompt first (see
// Request.Lost); the model is then loaded with that window (/api/ps); a
// model the server does not have is a 404 that says to pull it. s.URL is
// the server's root (what OLLAMA_HOST names); the OpenAI-compatible base
// URL is s.URL + "/v1".
type OllamaServer struct {
	*Server

	mu         sync.Mutex
	models     []OllamaModel
	defaultCtx int
}

// NewOllamaServer starts a fake Ollama with the given models.
func NewOllamaServer(t testing.TB, models []OllamaModel, answers ...Answer) *OllamaServer {
	t.Helper()
	o := &OllamaServer{models: append([]OllamaModel(nil), models...), defaultCtx: OllamaDefaultContext}
	o.Server = newServer(t, ollamaProtocol{}, answers, func(s *Server) {
		s.window = o.serveWindow
		s.admit = o.admit
		s.extra = map[string]http.HandlerFunc{
			"/api/ps":   o.ps,
			"/api/tags": o.tags,
			"/api/show": o.show,
		}
	})
	return o
}

// Models returns the server's models as they are now.
func (o *OllamaServer) Models() []OllamaModel {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]OllamaModel(nil), o.models...)
}

func (o *OllamaServer) find(name string) int {
	for i, m := range o.models {
		if sameModel(m.Name, name) {
			return i
		}
	}
	return -1
}

// admit answers a request for a model the server does not have, as
// Ollama does.
func (o *OllamaServer) admit(req Request) (Answer, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.find(req.Model) >= 0 {
		return Answer{}, false
	}
	a := Fail(http.StatusNotFound)
	a.Message = fmt.Sprintf("model %q not found, try pulling it first", req.Model)
	return a, true
}

// serveWindow is the window req is served with; the model is loaded with
// it from then on.
func (o *OllamaServer) serveWindow(req Request) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	w := o.defaultCtx
	if req.NumCtx > 0 {
		w = req.NumCtx
	}
	if i := o.find(req.Model); i >= 0 {
		o.models[i].Loaded = w
	}
	return w
}

func (o *OllamaServer) ps(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	defer o.mu.Unlock()
	loaded := []any{}
	for _, m := range o.models {
		if m.Loaded > 0 {
			loaded = append(loaded, map[string]any{"name": m.Name, "model": m.Name, "size_vram": 5 << 30, "context_length": m.Loaded})
		}
	}
	writeJSON(w, map[string]any{"models": loaded})
}

func (o *OllamaServer) tags(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	defer o.mu.Unlock()
	all := []any{}
	for _, m := range o.models {
		all = append(all, map[string]any{"name": m.Name, "model": m.Name})
	}
	writeJSON(w, map[string]any{"models": all})
}

func (o *OllamaServer) show(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Model string `json:"model"`
		Name  string `json:"name"`
	}
	body, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || json.Unmarshal(body, &in) != nil {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":"bad request"}`)
		return
	}
	name := in.Model
	if name == "" {
		name = in.Name
	}
	o.mu.Lock()
	i := o.find(name)
	var m OllamaModel
	if i >= 0 {
		m = o.models[i]
	}
	o.mu.Unlock()
	if i < 0 {
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, mustJSON(map[string]any{"error": fmt.Sprintf("model '%s' not found", name)}))
		return
	}
	arch := m.Arch
	if arch == "" {
		arch = "llama"
	}
	caps := []string{"completion"}
	if m.Vision {
		caps = append(caps, "vision")
	}
	writeJSON(w, map[string]any{"model_info": map[string]any{
		"general.architecture": arch, arch + ".context_length": m.Max,
	}, "capabilities": caps})
}

// sameModel compares names as Ollama does: "qwen3" is "qwen3:latest".
func sameModel(a, b string) bool {
	if b == "" {
		return false
	}
	if !strings.Contains(b, ":") {
		b += ":latest"
	}
	if !strings.Contains(a, ":") {
		a += ":latest"
	}
	return a == b
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, mustJSON(v))
}

// ollamaProtocol is Ollama's native /api/chat, and its OpenAI-compatible
// /v1/chat/completions beside it.
type ollamaProtocol struct{ openai openaiProtocol }

const ollamaChat = "/api/chat"

func (ollamaProtocol) name() string     { return "ollama" }
func (ollamaProtocol) basePath() string { return "" }

func (ollamaProtocol) env(s *Server) []string {
	return []string{"OLLAMA_HOST=" + s.Root}
}

func (p ollamaProtocol) match(r *http.Request) (bool, bool) {
	if r.Method == http.MethodPost && r.URL.Path == ollamaChat {
		return true, false // the body says whether it streams
	}
	return p.openai.match(r)
}

func native(req Request) bool { return req.Path == ollamaChat }

func (p ollamaProtocol) decode(body []byte, req *Request) error {
	if !native(*req) {
		return p.openai.decode(body, req)
	}
	var in struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string   `json:"role"`
			Content string   `json:"content"`
			Images  []string `json:"images"`
		} `json:"messages"`
		Stream  *bool           `json:"stream"`
		Think   json.RawMessage `json:"think"`
		Options struct {
			NumCtx     *int     `json:"num_ctx"`
			NumPredict int      `json:"num_predict"`
			Stop       []string `json:"stop"`
		} `json:"options"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return err
	}
	if in.Model == "" {
		return fmt.Errorf("model is required")
	}
	// Ollama streams unless told not to.
	req.Model, req.Stream, req.ThinkingBudget = in.Model, in.Stream == nil || *in.Stream, -1
	req.MaxTokens, req.Stop = in.Options.NumPredict, in.Options.Stop
	if in.Options.NumCtx != nil {
		if *in.Options.NumCtx <= 0 {
			return fmt.Errorf("num_ctx %d: want a positive number", *in.Options.NumCtx)
		}
		req.NumCtx = *in.Options.NumCtx
	}
	if len(in.Think) > 0 && string(in.Think) != "null" {
		req.Think = string(in.Think)
		switch req.Think {
		case "true", "false", `"low"`, `"medium"`, `"high"`:
		default:
			return fmt.Errorf("think %s: want true, false, \"low\", \"medium\" or \"high\"", req.Think)
		}
		req.IncludeThoughts = req.Think != "false"
		if strings.HasPrefix(req.Think, `"`) {
			req.ReasoningEffort = strings.Trim(req.Think, `"`)
		}
	}
	for _, m := range in.Messages {
		var imgs []llm.Image
		for _, b64 := range m.Images {
			// Ollama takes the bytes without a type; the fake reads
			// what its image loader reads.
			img, err := decodeImage(sniffMIME(b64), b64, "image/png", "image/jpeg", "image/webp")
			if err != nil {
				return fmt.Errorf("messages: %w", err)
			}
			imgs = append(imgs, img)
		}
		if len(imgs) > 0 && m.Role != "user" {
			return fmt.Errorf("images in a %s message", m.Role)
		}
		switch m.Role {
		case "system":
			req.System += m.Content
		case "user":
			req.Messages = append(req.Messages, llm.Message{Role: llm.User, Text: m.Content, Images: imgs})
		case "assistant":
			req.Messages = append(req.Messages, llm.Message{Role: llm.Assistant, Text: m.Content})
		default:
			return fmt.Errorf("unexpected message role %q", m.Role)
		}
	}
	if len(req.Messages) == 0 {
		return fmt.Errorf("messages is empty")
	}
	return nil
}

// streamType is NDJSON for the native API.
func (ollamaProtocol) streamType(req Request) string {
	if native(req) {
		return "application/x-ndjson"
	}
	return "text/event-stream"
}

func (ollamaProtocol) errorBody(status int, msg string) string {
	return mustJSON(map[string]any{"error": msg})
}

// errorEvent is an error line in the middle of the stream, as Ollama
// sends one when the runner fails.
func (p ollamaProtocol) errorEvent(status int, msg string) string {
	return p.errorBody(status, msg) + "\n"
}

func (ollamaProtocol) malformed() string {
	return `{"model":"llmtest","message":{"role":"assistant","content":"unterminated` + "\n"
}

func ollamaLine(req Request, msg map[string]any, done bool, extra map[string]any) string {
	v := map[string]any{
		"model": req.Model, "created_at": time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC).Format(time.RFC3339Nano),
		"message": msg, "done": done,
	}
	for k, x := range extra {
		v[k] = x
	}
	return mustJSON(v) + "\n"
}

func (ollamaProtocol) end(a Answer) map[string]any {
	u := a.usage()
	reason := "stop"
	if a.finish() == "length" {
		reason = "length"
	}
	return map[string]any{
		"done_reason": reason, "total_duration": 1500000000, "load_duration": 100000000,
		"prompt_eval_count": u.InputTokens, "prompt_eval_duration": 400000000,
		"eval_count": u.OutputTokens, "eval_duration": 1000000000,
	}
}

func (p ollamaProtocol) unary(req Request, a Answer) string {
	if !native(req) {
		return p.openai.unary(req, a)
	}
	msg := map[string]any{"role": "assistant", "content": a.text()}
	if len(a.Thoughts) > 0 {
		msg["thinking"] = strings.Join(a.Thoughts, "")
	}
	return ollamaLine(req, msg, true, p.end(a))
}

func (p ollamaProtocol) streamStart(req Request, a Answer) []string {
	if !native(req) {
		return p.openai.streamStart(req, a)
	}
	var lines []string
	for _, t := range a.Thoughts {
		lines = append(lines, ollamaLine(req, map[string]any{"role": "assistant", "content": "", "thinking": t}, false, nil))
	}
	return lines
}

func (p ollamaProtocol) streamChunk(req Request, a Answer, i int, text string) string {
	if !native(req) {
		return p.openai.streamChunk(req, a, i, text)
	}
	return ollamaLine(req, map[string]any{"role": "assistant", "content": text}, false, nil)
}

func (p ollamaProtocol) streamEnd(req Request, a Answer) []string {
	if !native(req) {
		return p.openai.streamEnd(req, a)
	}
	return []string{ollamaLine(req, map[string]any{"role": "assistant", "content": ""}, true, p.end(a))}
}

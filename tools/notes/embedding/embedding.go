// Package embedding makes the vectors of notes for search by meaning:
// Gemini's embedContent through Google's SDK (genai, which the chat's
// Gemini provider links anyway), and any OpenAI-compatible
// /v1/embeddings endpoint through a small client over net/http, which
// covers OpenAI itself, Ollama's local embedding models, llama.cpp and
// vLLM. Its embedders satisfy notes.Embedder.
package embedding

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Options choose and reach an embedding model.
type Options struct {
	// Provider is "gemini" or "openai" (any OpenAI-compatible server).
	Provider string
	// Model is the model's name; "" is the provider's default
	// (DefaultModel).
	Model string
	// BaseURL is the server's address; "" is the provider's own (for
	// Gemini, GOOGLE_GEMINI_BASE_URL first).
	BaseURL string
	// APIKey is the key; it may be empty for a server on a loopback
	// address.
	APIKey string
	// Dimensions asks for vectors of this size (Gemini's
	// outputDimensionality, OpenAI's dimensions); 0 is the model's own.
	Dimensions int
	// HTTPClient makes the requests; nil is a client with a timeout.
	HTTPClient *http.Client
}

// Providers and their default models.
var DefaultModel = map[string]string{
	"gemini": "gemini-embedding-001",
	"openai": "text-embedding-3-small",
}

// ErrNoKey is returned by New for a provider off this machine without a
// key.
var ErrNoKey = errors.New("no API key")

// Embedder embeds texts with one model.
type Embedder interface {
	Model() string
	Embed(ctx context.Context, texts []string, query bool) ([][]float32, error)
}

// callTimeout bounds one request to the provider.
const callTimeout = 2 * time.Minute

// New returns the embedder o describes. keyVar names the variable the key
// is read from, for the error when it is missing.
func New(o Options, keyVar string) (Embedder, error) {
	if o.Model == "" {
		o.Model = DefaultModel[o.Provider]
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Timeout: callTimeout}
	}
	if o.APIKey == "" && !Loopback(o.BaseURL) {
		return nil, fmt.Errorf("%w for %s embeddings: set %s, or point notes.embeddings.base_url at a server on this machine", ErrNoKey, o.Provider, keyVar)
	}
	switch o.Provider {
	case "gemini":
		return newGemini(o), nil
	case "openai":
		return newOpenAI(o), nil
	}
	return nil, fmt.Errorf("embedding provider %q: use gemini or openai", o.Provider)
}

// Loopback reports whether base is an address on this machine.
func Loopback(base string) bool {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return false
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// name is a model's name with its size, as stored with its vectors.
func name(provider, model string, dims int) string {
	n := provider + "/" + model
	if dims > 0 {
		n += fmt.Sprintf("@%d", dims)
	}
	return n
}

// inBatches calls fn on texts at most size at a time and joins the
// answers.
func inBatches(texts []string, size int, fn func([]string) ([][]float32, error)) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for len(texts) > 0 {
		n := min(size, len(texts))
		vecs, err := fn(texts[:n])
		if err != nil {
			return nil, err
		}
		if len(vecs) != n {
			return nil, fmt.Errorf("%d vectors for %d texts", len(vecs), n)
		}
		out = append(out, vecs...)
		texts = texts[n:]
	}
	return out, nil
}

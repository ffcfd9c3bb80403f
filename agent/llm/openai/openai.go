// Package openai is the llm.Model for OpenAI and every server that speaks
// its chat completions API (hosted services and local servers alike): a
// small client of the wire protocol over net/http, like agent/llm/ollama.
// It streams one request (POST {base}/chat/completions, server-sent
// events) and reads text, reasoning, usage and errors; the tool calls are
// text, so nothing else of the API is needed. (The official SDK it
// replaced put its whole API surface, and its init work, into every
// command the agent runs.) The client is built from explicit options
// only, never from the process environment, so that an OpenAI key cannot
// leak to another provider's server; llm.Policy is its only retry layer.
package openai

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/agentcli/agent/agent/llm"
)

// MaxStop is how many stop sequences the chat completions API accepts.
const MaxStop = 4

// Options configure an OpenAI-compatible model.
type Options struct {
	// Provider names the service in messages and Name: the configured
	// provider's name; "openai" when empty.
	Provider string
	Model    string
	// BaseURL is the API root, ending in /v1 for most servers. Required:
	// the caller resolves presets and OPENAI_BASE_URL.
	BaseURL string
	// APIKey may be empty for servers that need none (local ones).
	APIKey string
	// HTTPClient carries the requests; nil means a fresh default client.
	HTTPClient *http.Client
	// Policy bounds retries and silences.
	Policy llm.Policy
	// KeySetting and URLSetting name, for error messages, where the key
	// and the base URL come from (e.g. "OPENROUTER_API_KEY").
	KeySetting, URLSetting string
	// MaxCompletionTokens sends the token limit as max_completion_tokens
	// (OpenAI's current name, required by its reasoning models) instead of
	// max_tokens (what most compatible servers read).
	MaxCompletionTokens bool
	// AskWindow makes Window ask the server for its context window (a
	// local or self-hosted server: llama.cpp's /props, LM Studio's model
	// list); hosted services are not asked.
	AskWindow bool
	// Local names the server program when it runs on the user's machine
	// ("llama.cpp", "LM Studio"), for the message when it is not running.
	Local string
	// Images overrides whether the model takes images (the
	// configuration's images key); nil leaves it to the family table.
	Images *bool
}

// Model streams replies from one model of an OpenAI-compatible server.
type Model struct {
	hc     *http.Client
	o      Options
	url    string // the chat completions endpoint
	ep     llm.Endpoint
	noStop atomic.Bool // the model refused the stop parameter once
}

var _ llm.Model = (*Model)(nil)

// New builds a model. It makes no request.
func New(o Options) (*Model, error) {
	if o.Model == "" {
		return nil, errors.New("openai: no model named")
	}
	if o.BaseURL == "" {
		return nil, errors.New("openai: no base URL")
	}
	if o.Provider == "" {
		o.Provider = "openai"
	}
	return &Model{
		// Error pages that are not the API's (a proxy's HTML) are worded
		// by the llm package, alike for every provider.
		hc:  llm.Client(o.HTTPClient),
		o:   o,
		url: strings.TrimRight(o.BaseURL, "/") + "/chat/completions",
		ep: llm.Endpoint{
			Provider:   o.Provider,
			Model:      o.Model,
			BaseURL:    o.BaseURL,
			KeySetting: orDefault(o.KeySetting, "OPENAI_API_KEY"),
			URLSetting: orDefault(o.URLSetting, "OPENAI_BASE_URL or base_url"),
			Local:      o.Local,
		},
	}, nil
}

// Name is "<provider>/<model>".
func (m *Model) Name() string { return m.o.Provider + "/" + m.o.Model }

// Stream sends req and yields the reply as it arrives, retrying as the
// policy allows until text has been yielded.
func (m *Model) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return m.o.Policy.Stream(ctx, m.ep, func(ctx context.Context) iter.Seq2[llm.Chunk, error] {
		return m.attempt(ctx, req)
	})
}

// attempt makes one streaming request and turns its chunks into ours:
// text as it comes, then one chunk with the usage and the finish reason.
func (m *Model) attempt(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		resp, err := m.post(ctx, req)
		if refusesStop(err) && len(req.Stop) > 0 && !m.noStop.Swap(true) {
			// Some models (OpenAI's reasoning ones) reject "stop"; the
			// loop cuts the reply itself, so ask again without it.
			resp, err = m.post(ctx, req)
		}
		if err != nil {
			yield(llm.Chunk{}, err)
			return
		}
		defer resp.Body.Close()
		var usage *llm.Usage
		finish := ""
		for ev, err := range llm.Events(resp.Body) {
			if err != nil {
				yield(llm.Chunk{}, err)
				return
			}
			if bytes.HasPrefix(ev.Data, []byte("[DONE]")) {
				break
			}
			c, err := decodeChunk(ev.Data)
			if err != nil {
				yield(llm.Chunk{}, err)
				return
			}
			if c.Usage != nil {
				usage = c.Usage
			}
			if c.Text != "" || c.Thought != "" {
				if !yield(llm.Chunk{Text: c.Text, Thought: c.Thought}, nil) {
					return
				}
			}
			if c.Finish != "" {
				finish = c.Finish
			}
		}
		if finish == "" {
			// A stream that ends without a finish reason was cut short.
			yield(llm.Chunk{}, fmt.Errorf("stream ended without a finish reason: %w", io.ErrUnexpectedEOF))
			return
		}
		// A stream that ends without [DONE] after its finish reason is
		// complete: some compatible servers never send it.
		yield(llm.Chunk{Usage: usage, Finish: finish}, nil)
	}
}

// post sends the request and returns the streaming answer, or the
// server's error as an *llm.APIError.
func (m *Model) post(ctx context.Context, req llm.Request) (*http.Response, error) {
	h := http.Header{"Accept": {"text/event-stream"}}
	if m.o.APIKey != "" {
		h.Set("Authorization", "Bearer "+m.o.APIKey)
	}
	return llm.PostJSON(ctx, m.hc, m.url, h, m.body(req))
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// refusesStop reports a 400 that names the stop parameter.
func refusesStop(err error) bool {
	var e *llm.APIError
	return errors.As(err, &e) && e.Status == http.StatusBadRequest && e.Param == "stop"
}

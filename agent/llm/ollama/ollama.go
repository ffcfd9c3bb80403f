// Package ollama is the llm.Model for Ollama through its native chat API
// (POST /api/chat, streamed as one JSON object a line). The native API,
// unlike Ollama's OpenAI-compatible one, takes the context window per
// request (options.num_ctx): the model chooses it once per conversation
// (see Window) and sends the same value in every request, so that the
// server loads the model once with a window the conversation fits in.
//
// It is a small client over net/http rather than Ollama's own Go package
// (github.com/ollama/ollama/api), which would add about 700 KB to the
// binary, six packages with init work (YAML, SSH keys) to every start,
// and some thirty modules to go.mod, for three endpoints.
package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentcli/agent/agent/llm"
)

// DefaultURL is where Ollama listens unless OLLAMA_HOST says otherwise.
const DefaultURL = "http://127.0.0.1:11434"

// MaxStop is how many stop sequences are sent; the loop's own cut-off
// covers any beyond.
const MaxStop = 4

// Options configure an Ollama model.
type Options struct {
	Model string
	// BaseURL is the server's root; DefaultURL when empty. A trailing
	// /v1 (the OpenAI-compatible path older configurations named) is
	// dropped.
	BaseURL string
	// APIKey, when set, is sent as a bearer token (an Ollama behind a
	// proxy that wants one); a local server needs none.
	APIKey string
	// HTTPClient carries the requests; nil means a fresh default client.
	HTTPClient *http.Client
	// Policy bounds retries and silences.
	Policy llm.Policy
	// URLSetting names, for error messages, where the address comes
	// from ("OLLAMA_HOST or base_url").
	URLSetting string
	// NumCtx is the window to ask for in every request (the configured
	// context_window); 0 lets Window choose it for the conversation.
	NumCtx int
	// MaxNumCtx caps a chosen window, for memory: DefaultMaxNumCtx when 0.
	MaxNumCtx int
	// Images overrides whether the model takes images (the
	// configuration's images key); nil asks the server (ImageSpec).
	Images *bool
}

// Model streams replies from one model of an Ollama server. One Model
// serves one conversation: its window, once chosen, stays.
type Model struct {
	o       Options
	root    string
	hc      *http.Client
	ep      llm.Endpoint
	noThink atomic.Bool // the model refused "think" once

	mu     sync.Mutex
	win    llm.Window
	chosen bool
	spec   *llm.ImageSpec // asked once (ImageSpec)
}

var (
	_ llm.Model    = (*Model)(nil)
	_ llm.Windowed = (*Model)(nil)
)

// New builds a model. It makes no request.
func New(o Options) (*Model, error) {
	if o.Model == "" {
		return nil, errors.New("ollama: no model named")
	}
	root := strings.TrimRight(o.BaseURL, "/")
	if root == "" {
		root = DefaultURL
	}
	root = strings.TrimRight(strings.TrimSuffix(root, "/v1"), "/")
	if o.URLSetting == "" {
		o.URLSetting = "OLLAMA_HOST or base_url"
	}
	if o.MaxNumCtx <= 0 {
		o.MaxNumCtx = DefaultMaxNumCtx
	}
	return &Model{
		o:    o,
		root: root,
		// Error pages that are not the API's (a proxy's HTML) are worded
		// by the llm package, alike for every provider.
		hc: llm.Client(o.HTTPClient),
		ep: llm.Endpoint{
			Provider: "ollama", Model: o.Model, BaseURL: root,
			KeySetting: "OLLAMA_API_KEY", URLSetting: o.URLSetting, Local: "Ollama",
		},
	}, nil
}

// Name is "ollama/<model>".
func (m *Model) Name() string { return "ollama/" + m.o.Model }

// Stream sends req and yields the reply as it arrives, retrying as the
// policy allows until text has been yielded. A conversation whose window
// was not chosen yet gets one sized to this first request.
func (m *Model) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	numCtx := m.Window(ctx, llm.EstimateRequestWith(req, ImageTokens)+replyRoom(req)+workRoom).Tokens
	return m.o.Policy.Stream(ctx, m.ep, func(ctx context.Context) iter.Seq2[llm.Chunk, error] {
		return m.attempt(ctx, req, numCtx)
	})
}

// replyRoom is what a request's reply may take.
func replyRoom(req llm.Request) int {
	if req.MaxTokens > 0 {
		return req.MaxTokens
	}
	return 2048
}

// message is one message of /api/chat.
type message struct {
	Role     string   `json:"role"`
	Content  string   `json:"content"`
	Thinking string   `json:"thinking,omitempty"`
	Images   []string `json:"images,omitempty"` // base64
}

// chatRequest is the body of POST /api/chat.
type chatRequest struct {
	Model    string         `json:"model"`
	Messages []message      `json:"messages"`
	Stream   bool           `json:"stream"`
	Think    any            `json:"think,omitempty"`
	Options  map[string]any `json:"options,omitempty"`
}

func (m *Model) body(req llm.Request, numCtx int) chatRequest {
	msgs := make([]message, 0, len(req.Messages)+1)
	if req.System != "" {
		msgs = append(msgs, message{Role: "system", Content: req.System})
	}
	for _, msg := range req.Messages {
		role := "user"
		if msg.Role == llm.Assistant {
			role = "assistant"
		}
		msgs = append(msgs, message{Role: role, Content: msg.Text, Images: encodeImages(msg)})
	}
	opts := map[string]any{}
	if numCtx > 0 {
		opts["num_ctx"] = numCtx
	}
	if req.MaxTokens > 0 {
		opts["num_predict"] = req.MaxTokens
	}
	if len(req.Stop) > 0 {
		opts["stop"] = req.Stop[:min(len(req.Stop), MaxStop)]
	}
	body := chatRequest{Model: m.o.Model, Messages: msgs, Stream: true, Options: opts}
	if !m.noThink.Load() {
		body.Think = think(req.Reasoning)
	}
	return body
}

// think maps a reasoning level onto Ollama's think field: off is false,
// a level is the level (gpt-oss takes it as is; other thinking models
// take any level as on), and the default sends nothing, so a thinking
// model thinks and others do not.
func think(r llm.Reasoning) any {
	switch r {
	case llm.ReasoningOff:
		return false
	case llm.ReasoningLow, llm.ReasoningMedium, llm.ReasoningHigh:
		return string(r)
	}
	return nil
}

// chunk is one line of the stream: a delta, the end, or an error.
type chunk struct {
	Message struct {
		Content  string `json:"content"`
		Thinking string `json:"thinking"`
	} `json:"message"`
	Done            bool   `json:"done"`
	DoneReason      string `json:"done_reason"`
	PromptEvalCount int    `json:"prompt_eval_count"`
	EvalCount       int    `json:"eval_count"`
	Error           string `json:"error"`
}

// attempt makes one streaming request and turns its lines into chunks:
// text and thoughts as they come, then one chunk with the usage and the
// finish reason.
func (m *Model) attempt(ctx context.Context, req llm.Request, numCtx int) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		resp, err := m.post(ctx, req, numCtx)
		if err != nil && req.Reasoning != "" && refusesThink(err) && !m.noThink.Swap(true) {
			// A model that cannot think refuses the field: the reply
			// comes without thoughts, as from any other such model.
			resp, err = m.post(ctx, req, numCtx)
		}
		if err != nil {
			yield(llm.Chunk{}, err)
			return
		}
		defer resp.Body.Close()
		dec := json.NewDecoder(resp.Body)
		for {
			var c chunk
			if err := dec.Decode(&c); err != nil {
				if errors.Is(err, io.EOF) {
					// A stream that ends before "done" was cut short.
					err = fmt.Errorf("stream ended before done: %w", io.ErrUnexpectedEOF)
				}
				yield(llm.Chunk{}, err)
				return
			}
			if c.Error != "" {
				// An error in the stream is the server's (the runner
				// failed): worth another attempt, like a 500.
				yield(llm.Chunk{}, &llm.APIError{Status: http.StatusInternalServerError, Message: c.Error})
				return
			}
			if c.Message.Content != "" || c.Message.Thinking != "" {
				if !yield(llm.Chunk{Text: c.Message.Content, Thought: c.Message.Thinking}, nil) {
					return
				}
			}
			if c.Done {
				finish := "stop"
				if c.DoneReason == "length" {
					finish = "length"
				}
				yield(llm.Chunk{Usage: &llm.Usage{InputTokens: c.PromptEvalCount, OutputTokens: c.EvalCount}, Finish: finish}, nil)
				return
			}
		}
	}
}

// post sends the request and returns the streaming answer, or the
// server's error as an *llm.APIError ({"error": "..."}); a model that is
// not pulled gets the command that pulls it as its fix.
func (m *Model) post(ctx context.Context, req llm.Request, numCtx int) (*http.Response, error) {
	h := http.Header{"Accept": {"application/x-ndjson"}}
	if m.o.APIKey != "" {
		h.Set("Authorization", "Bearer "+m.o.APIKey)
	}
	resp, err := llm.PostJSON(ctx, m.hc, m.root+"/api/chat", h, m.body(req, numCtx))
	var e *llm.APIError
	if errors.As(err, &e) && e.Status == http.StatusNotFound && strings.Contains(e.Message, "not found") {
		e.Fix = fmt.Sprintf("run `ollama pull %s`, or choose an installed model with --model (`ollama list` shows them)", m.o.Model)
	}
	return resp, err
}

// refusesThink reports Ollama's answer to think for a model that cannot.
func refusesThink(err error) bool {
	var e *llm.APIError
	return errors.As(err, &e) && e.Status == http.StatusBadRequest && strings.Contains(e.Message, "does not support thinking")
}

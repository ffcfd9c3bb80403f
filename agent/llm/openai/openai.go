// Package openai is the llm.Model for OpenAI and every server that speaks
// its chat completions API (hosted services and local servers alike),
// built on the official github.com/openai/openai-go/v3 SDK. The client is
// built from explicit options only, never from the process environment, so
// that an OpenAI key cannot leak to another provider's server; the SDK's
// own retries are off so that llm.Policy is the only retry layer.
package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"sync/atomic"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"

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
	chat   openai.ChatCompletionService
	o      Options
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
	// Error pages that are not the API's (a proxy's HTML) are worded
	// by the llm package, alike for every provider.
	hc := llm.Client(o.HTTPClient)
	opts := []option.RequestOption{
		option.WithHTTPClient(hc),
		option.WithBaseURL(o.BaseURL),
		option.WithMaxRetries(0),
	}
	if o.APIKey != "" {
		opts = append(opts, option.WithAPIKey(o.APIKey))
	}
	return &Model{
		hc: hc,
		// The service, not openai.NewClient: NewClient would add the
		// environment's OPENAI_API_KEY even when talking to OpenRouter.
		chat: openai.NewChatCompletionService(opts...),
		o:    o,
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

func (m *Model) params(req llm.Request) openai.ChatCompletionNewParams {
	msgs := make([]openai.ChatCompletionMessageParamUnion, 0, len(req.Messages)+1)
	if req.System != "" {
		msgs = append(msgs, openai.SystemMessage(req.System))
	}
	for _, msg := range req.Messages {
		if msg.Role == llm.Assistant {
			msgs = append(msgs, openai.AssistantMessage(msg.Text))
		} else {
			msgs = append(msgs, content(msg))
		}
	}
	p := openai.ChatCompletionNewParams{
		Model:         m.o.Model,
		Messages:      msgs,
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if len(req.Stop) > 0 && !m.noStop.Load() {
		// The loop's own cut-off covers any stop sequence beyond the limit.
		p.Stop = openai.ChatCompletionNewParamsStopUnion{OfStringArray: req.Stop[:min(len(req.Stop), MaxStop)]}
	}
	switch req.Reasoning {
	case llm.ReasoningLow, llm.ReasoningMedium, llm.ReasoningHigh:
		p.ReasoningEffort = shared.ReasoningEffort(req.Reasoning)
	}
	// Off sends nothing: models that do not reason reject the field, and
	// the lowest effort differs between those that do ("minimal", "none").
	if req.MaxTokens > 0 {
		if m.o.MaxCompletionTokens {
			p.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
		} else {
			p.MaxTokens = openai.Int(int64(req.MaxTokens))
		}
	}
	return p
}

// attempt makes one streaming request and turns its chunks into ours:
// text as it comes, then one chunk with the usage and the finish reason.
func (m *Model) attempt(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		stream := m.chat.NewStreaming(ctx, m.params(req))
		if refusesStop(stream.Err()) && len(req.Stop) > 0 && !m.noStop.Swap(true) {
			// Some models (OpenAI's reasoning ones) reject "stop"; the
			// loop cuts the reply itself, so ask again without it.
			stream.Close()
			stream = m.chat.NewStreaming(ctx, m.params(req))
		}
		defer stream.Close()
		var usage *llm.Usage
		finish := ""
		for stream.Next() {
			c := stream.Current()
			if u := c.Usage; u.PromptTokens > 0 || u.CompletionTokens > 0 {
				usage = &llm.Usage{
					InputTokens:    int(u.PromptTokens),
					OutputTokens:   int(u.CompletionTokens),
					CachedTokens:   int(u.PromptTokensDetails.CachedTokens),
					ThinkingTokens: int(u.CompletionTokensDetails.ReasoningTokens),
				}
			}
			if len(c.Choices) == 0 {
				continue
			}
			ch := c.Choices[0]
			if t, th := ch.Delta.Content, deltaThought(ch.Delta); t != "" || th != "" {
				if !yield(llm.Chunk{Text: t, Thought: th}, nil) {
					return
				}
			}
			if ch.FinishReason != "" {
				finish = ch.FinishReason
			}
		}
		if err := stream.Err(); err != nil {
			yield(llm.Chunk{}, convertError(err))
			return
		}
		if finish == "" {
			// A stream that ends without a finish reason was cut short.
			yield(llm.Chunk{}, fmt.Errorf("stream ended without a finish reason: %w", io.ErrUnexpectedEOF))
			return
		}
		yield(llm.Chunk{Usage: usage, Finish: finish}, nil)
	}
}

// deltaThought is the reasoning text compatible servers send beside the
// content: "reasoning_content" (DeepSeek, vLLM, llama.cpp) or "reasoning"
// (OpenRouter, Ollama). OpenAI itself sends none.
func deltaThought(d openai.ChatCompletionChunkChoiceDelta) string {
	for _, k := range []string{"reasoning_content", "reasoning"} {
		f, ok := d.JSON.ExtraFields[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal([]byte(f.Raw()), &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// refusesStop reports a 400 that names the stop parameter.
func refusesStop(err error) bool {
	var e *openai.Error
	return errors.As(err, &e) && e.StatusCode == http.StatusBadRequest && e.Param == "stop"
}

// convertError turns the SDK's errors into what llm.Policy judges.
func convertError(err error) error {
	var e *openai.Error
	if errors.As(err, &e) {
		var h http.Header
		if e.Response != nil {
			h = e.Response.Header
		}
		return &llm.APIError{Status: e.StatusCode, Message: e.Message, RetryAfter: llm.RetryAfter(h, timeNow())}
	}
	var se *ssestream.StreamError
	if errors.As(err, &se) {
		return streamError(se)
	}
	return err
}

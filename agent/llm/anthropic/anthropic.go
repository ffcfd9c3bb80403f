// Package anthropic is the llm.Model for Anthropic's Messages API, built
// on the official github.com/anthropics/anthropic-sdk-go/v2 SDK. The SDK's
// own retries are off so that llm.Policy is the only retry layer.
package anthropic

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/shared"

	"github.com/agentcli/agent/agent/llm"
)

// DefaultMaxTokens is the reply limit sent when the request sets none: the
// API requires one, and every current model can produce this many.
const DefaultMaxTokens = 8192

// Options configure an Anthropic model.
type Options struct {
	Model string // e.g. "claude-sonnet-4-5"
	// APIKey (x-api-key) or AuthToken (a bearer token) is required: the
	// caller reads ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN.
	APIKey, AuthToken string
	// BaseURL replaces the API's address; "" leaves it to the SDK, which
	// reads ANTHROPIC_BASE_URL and then uses Anthropic's endpoint.
	BaseURL string
	// HTTPClient carries the requests; nil means a fresh default client.
	HTTPClient *http.Client
	// Policy bounds retries and silences.
	Policy llm.Policy
	// KeySetting and URLSetting name, for error messages, where the key
	// and the base URL come from.
	KeySetting, URLSetting string
	// Images overrides whether the model takes images (the
	// configuration's images key); nil leaves it to ImageSpec's table.
	Images *bool
}

// Model streams replies from one Anthropic model.
type Model struct {
	client anthropic.Client
	model  string
	images *bool
	policy llm.Policy
	ep     llm.Endpoint
}

var _ llm.Model = (*Model)(nil)

// New builds an Anthropic model. It makes no request.
func New(o Options) (*Model, error) {
	if o.Model == "" {
		return nil, errors.New("anthropic: no model named")
	}
	keySetting := orDefault(o.KeySetting, "ANTHROPIC_API_KEY")
	if o.APIKey == "" && o.AuthToken == "" {
		return nil, fmt.Errorf("anthropic: no API key: set %s", keySetting)
	}
	// Error pages that are not the API's (a proxy's HTML) are worded
	// by the llm package, alike for every provider.
	hc := llm.Client(o.HTTPClient)
	opts := []option.RequestOption{option.WithHTTPClient(hc), option.WithMaxRetries(0)}
	if o.APIKey != "" {
		opts = append(opts, option.WithAPIKey(o.APIKey))
	} else {
		opts = append(opts, option.WithAuthToken(o.AuthToken))
	}
	base := o.BaseURL
	if base != "" {
		opts = append(opts, option.WithBaseURL(base))
	} else {
		base = "https://api.anthropic.com"
	}
	return &Model{
		client: anthropic.NewClient(opts...),
		model:  o.Model,
		images: o.Images,
		policy: o.Policy,
		ep: llm.Endpoint{
			Provider:   "anthropic",
			Model:      o.Model,
			BaseURL:    base,
			KeySetting: keySetting,
			URLSetting: orDefault(o.URLSetting, "ANTHROPIC_BASE_URL or base_url"),
		},
	}, nil
}

// Name is "anthropic/<model>".
func (m *Model) Name() string { return "anthropic/" + m.model }

// Stream sends req and yields the reply as it arrives, retrying as the
// policy allows until text has been yielded.
func (m *Model) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	params := m.params(req)
	return m.policy.Stream(ctx, m.ep, func(ctx context.Context) iter.Seq2[llm.Chunk, error] {
		return m.attempt(ctx, params)
	})
}

// params builds the request. Two cache breakpoints mark the stable
// prefix: the system prompt, and the end of the conversation so far (the
// next request finds this one's prefix in the cache and pays a tenth for
// it). Anthropic caches only what is marked.
func (m *Model) params(req llm.Request) anthropic.MessageNewParams {
	msgs := make([]anthropic.MessageParam, 0, len(req.Messages))
	for i, msg := range req.Messages {
		bs := blocks(msg)
		if i == len(req.Messages)-1 {
			markCache(bs)
		}
		if msg.Role == llm.Assistant {
			msgs = append(msgs, anthropic.NewAssistantMessage(bs...))
		} else {
			msgs = append(msgs, anthropic.NewUserMessage(bs...))
		}
	}
	p := anthropic.MessageNewParams{
		Model:         anthropic.Model(m.model),
		MaxTokens:     DefaultMaxTokens,
		Messages:      msgs,
		StopSequences: req.Stop,
	}
	if req.MaxTokens > 0 {
		p.MaxTokens = int64(req.MaxTokens)
	}
	if req.System != "" {
		p.System = []anthropic.TextBlockParam{{Text: req.System, CacheControl: anthropic.NewCacheControlEphemeralParam()}}
	}
	if budget := req.Reasoning.ThinkingBudget(); budget > 0 {
		// Extended thinking: the budget must stay under max_tokens, so
		// the reply keeps its own allowance on top.
		p.Thinking = anthropic.ThinkingConfigParamOfEnabled(int64(budget))
		p.MaxTokens += int64(budget)
	}
	return p
}

// attempt makes one streaming request and turns its events into chunks:
// text as it comes, then one chunk with the usage and the finish reason.
func (m *Model) attempt(ctx context.Context, params anthropic.MessageNewParams) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		stream := m.client.Messages.NewStreaming(ctx, params)
		defer stream.Close()
		var usage llm.Usage
		finish := ""
		for stream.Next() {
			ev := stream.Current()
			switch ev.Type {
			case "message_start":
				u := ev.Message.Usage
				usage.InputTokens = int(u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens)
				usage.CachedTokens = int(u.CacheReadInputTokens)
				usage.CacheWriteTokens = int(u.CacheCreationInputTokens)
				usage.OutputTokens = int(u.OutputTokens)
			case "content_block_delta":
				var c llm.Chunk
				switch ev.Delta.Type {
				case "text_delta":
					c.Text = ev.Delta.Text
				case "thinking_delta":
					c.Thought = ev.Delta.Thinking
				}
				if c != (llm.Chunk{}) && !yield(c, nil) {
					return
				}
			case "message_delta":
				if ev.Delta.StopReason != "" {
					finish = finishReason(ev.Delta.StopReason)
				}
				if ev.Usage.OutputTokens > 0 {
					usage.OutputTokens = int(ev.Usage.OutputTokens)
				}
			}
		}
		if err := stream.Err(); err != nil {
			yield(llm.Chunk{}, convertError(err))
			return
		}
		if finish == "" {
			// A stream that ends without a stop reason was cut short.
			yield(llm.Chunk{}, fmt.Errorf("stream ended without a stop reason: %w", io.ErrUnexpectedEOF))
			return
		}
		yield(llm.Chunk{Usage: &usage, Finish: finish}, nil)
	}
}

func finishReason(r anthropic.StopReason) string {
	switch r {
	case anthropic.StopReasonEndTurn:
		return "stop"
	case anthropic.StopReasonMaxTokens:
		return "length"
	case anthropic.StopReasonStopSequence:
		return "stop_sequence"
	}
	return string(r)
}

// convertError turns the SDK's errors into what llm.Policy judges. An
// error event inside a stream arrives with the stream's status (200), so
// its status comes from its type.
func convertError(err error) error {
	var e *anthropic.Error
	if !errors.As(err, &e) {
		return err
	}
	status := e.StatusCode
	if status < 400 {
		status = statusOf(e.Type())
	}
	var h http.Header
	if e.Response != nil && e.StatusCode >= 400 {
		h = e.Response.Header
	}
	return &llm.APIError{Status: status, Message: e.Message, RetryAfter: llm.RetryAfter(h, time.Now())}
}

func statusOf(t shared.ErrorType) int {
	switch t {
	case shared.ErrorTypeInvalidRequestError:
		return 400
	case shared.ErrorTypeAuthenticationError:
		return 401
	case shared.ErrorTypePermissionError, shared.ErrorTypeBillingError:
		return 403
	case shared.ErrorTypeNotFoundError:
		return 404
	case shared.ErrorTypeRateLimitError:
		return 429
	case shared.ErrorTypeOverloadedError:
		return 529
	case shared.ErrorTypeTimeoutError:
		return 504
	}
	return 500
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

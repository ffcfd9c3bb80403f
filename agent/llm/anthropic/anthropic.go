// Package anthropic is the llm.Model for Anthropic's Messages API: a small
// client of the wire protocol over net/http, like agent/llm/ollama. It
// streams one request (POST {base}/v1/messages, server-sent events) and
// reads text, thinking, usage and errors; the tool calls are text, so
// nothing else of the API is needed. (The official SDK it replaced put its
// whole API surface, and its init work, into every command the agent
// runs.) llm.Policy is its only retry layer.
package anthropic

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strings"

	"github.com/agentcli/agent/agent/llm"
)

// DefaultMaxTokens is the reply limit sent when the request sets none: the
// API requires one, and every current model can produce this many.
const DefaultMaxTokens = 8192

// DefaultURL is the API's address, used when no base URL is configured.
const DefaultURL = "https://api.anthropic.com"

// APIVersion is the anthropic-version header: the version of the API
// the request and its events are written for (the one the official Go
// SDK v2 sends).
const APIVersion = "2026-10-21"

// Options configure an Anthropic model.
type Options struct {
	Model string // e.g. "claude-sonnet-4-5"
	// APIKey or AuthToken is required: the caller reads ANTHROPIC_API_KEY
	// or ANTHROPIC_AUTH_TOKEN. Either travels as a bearer token, as the
	// official SDK v2 sends both.
	APIKey, AuthToken string
	// BaseURL replaces the API's address; "" is DefaultURL. (The caller
	// reads ANTHROPIC_BASE_URL into it, as the configuration does.)
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
	hc     *http.Client
	url    string // the messages endpoint
	token  string // the key or the auth token
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
	token := orDefault(o.APIKey, o.AuthToken)
	if token == "" {
		return nil, fmt.Errorf("anthropic: no API key: set %s", keySetting)
	}
	base := strings.TrimRight(orDefault(o.BaseURL, DefaultURL), "/")
	return &Model{
		// Error pages that are not the API's (a proxy's HTML) are worded
		// by the llm package, alike for every provider.
		hc:     llm.Client(o.HTTPClient),
		url:    base + "/v1/messages",
		token:  token,
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
	body := m.body(req)
	return m.policy.Stream(ctx, m.ep, func(ctx context.Context) iter.Seq2[llm.Chunk, error] {
		return m.attempt(ctx, body)
	})
}

// attempt makes one streaming request and turns its events into chunks:
// text and thoughts as they come, then one chunk with the usage and the
// finish reason.
func (m *Model) attempt(ctx context.Context, body messagesRequest) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		h := http.Header{
			"Accept":            {"text/event-stream"},
			"Authorization":     {"Bearer " + m.token},
			"Anthropic-Version": {APIVersion},
		}
		resp, err := llm.PostJSON(ctx, m.hc, m.url, h, body)
		if err != nil {
			yield(llm.Chunk{}, err)
			return
		}
		defer resp.Body.Close()
		var usage usage
		finish := ""
		for ev, err := range llm.Events(resp.Body) {
			if err != nil {
				yield(llm.Chunk{}, err)
				return
			}
			e, err := decodeEvent(ev)
			if err != nil {
				yield(llm.Chunk{}, err)
				return
			}
			switch e.Type {
			case "message_start":
				usage.merge(e.Message.Usage)
			case "content_block_delta":
				c := llm.Chunk{Text: e.Delta.Text, Thought: e.Delta.Thinking}
				if c != (llm.Chunk{}) && !yield(c, nil) {
					return
				}
			case "message_delta":
				if e.Delta.StopReason != "" {
					finish = finishReason(e.Delta.StopReason)
				}
				usage.merge(e.Usage)
			}
			if e.Type == "message_stop" {
				break
			}
		}
		if finish == "" {
			// A stream that ends without a stop reason was cut short.
			yield(llm.Chunk{}, fmt.Errorf("stream ended without a stop reason: %w", io.ErrUnexpectedEOF))
			return
		}
		u := usage.neutral()
		yield(llm.Chunk{Usage: &u, Finish: finish}, nil)
	}
}

func finishReason(r string) string {
	switch r {
	case "end_turn":
		return "stop"
	case "max_tokens":
		return "length"
	}
	return r // stop_sequence, refusal, pause_turn, ...
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

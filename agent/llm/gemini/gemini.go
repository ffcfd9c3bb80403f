// Package gemini is the llm.Model for Google's Gemini API, built on the
// official google.golang.org/genai SDK. The SDK's own retries stay off (it
// has none unless asked, and automatic stream continuation is disabled) so
// that llm.Policy is the only retry layer.
package gemini

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strings"
	"time"

	"google.golang.org/genai"

	"github.com/agentcli/agent/agent/llm"
)

// MaxStop is how many stop sequences the Gemini API accepts.
const MaxStop = 5

// Options configure a Gemini model.
type Options struct {
	Model string // e.g. "gemini-2.5-flash"
	// APIKey is required: the caller reads GEMINI_API_KEY or GOOGLE_API_KEY
	// (or its own setting) so that tests never see the process environment.
	APIKey string
	// BaseURL replaces the API's address; "" leaves it to the SDK, which
	// reads GOOGLE_GEMINI_BASE_URL and then uses Google's endpoint.
	BaseURL string
	// HTTPClient carries the requests; nil means a fresh default client.
	HTTPClient *http.Client
	// Policy bounds retries and silences.
	Policy llm.Policy
	// KeySetting and URLSetting name, for error messages, where the key
	// and the base URL come from (e.g. "GEMINI_API_KEY").
	KeySetting, URLSetting string
	// Images overrides whether the model takes images (the
	// configuration's images key); nil leaves it to ImageSpec's table.
	Images *bool
}

// Model streams replies from one Gemini model.
type Model struct {
	client *genai.Client
	model  string
	images *bool
	policy llm.Policy
	ep     llm.Endpoint
}

var _ llm.Model = (*Model)(nil)

// New builds a Gemini model. It makes no request.
func New(ctx context.Context, o Options) (*Model, error) {
	if o.Model == "" {
		return nil, errors.New("gemini: no model named")
	}
	if o.APIKey == "" {
		return nil, fmt.Errorf("gemini: no API key: set %s", orDefault(o.KeySetting, "GEMINI_API_KEY"))
	}
	hc := tapClient(llm.Client(o.HTTPClient))
	client, err := genai.NewClient(ctx, &genai.ClientConfig{
		APIKey:     o.APIKey,
		Backend:    genai.BackendGeminiAPI,
		HTTPClient: hc,
		// RetryOptions stays nil: the SDK then sends each request once.
		HTTPOptions: genai.HTTPOptions{BaseURL: o.BaseURL},
	})
	if err != nil {
		// The SDK's message may print its whole config: keep only our words.
		return nil, errors.New("gemini: cannot create the client: check the API key and base URL")
	}
	base := o.BaseURL
	if base == "" {
		base = client.ClientConfig().HTTPOptions.BaseURL
	}
	return &Model{
		client: client,
		model:  o.Model,
		images: o.Images,
		policy: o.Policy,
		ep: llm.Endpoint{
			Provider:   "gemini",
			Model:      o.Model,
			BaseURL:    base,
			KeySetting: orDefault(o.KeySetting, "GEMINI_API_KEY"),
			URLSetting: orDefault(o.URLSetting, "GOOGLE_GEMINI_BASE_URL or base_url"),
		},
	}, nil
}

// Name is "gemini/<model>".
func (m *Model) Name() string { return "gemini/" + m.model }

// Stream sends req and yields the reply as it arrives, retrying as the
// policy allows until text has been yielded.
func (m *Model) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	contents, cfg := m.convert(req)
	return m.policy.Stream(ctx, m.ep, func(ctx context.Context) iter.Seq2[llm.Chunk, error] {
		return m.attempt(ctx, contents, cfg)
	})
}

func (m *Model) convert(req llm.Request) ([]*genai.Content, *genai.GenerateContentConfig) {
	contents := make([]*genai.Content, 0, len(req.Messages))
	for _, msg := range req.Messages {
		role := genai.Role(genai.RoleUser)
		if msg.Role == llm.Assistant {
			role = genai.RoleModel
		}
		contents = append(contents, genai.NewContentFromParts(parts(msg), role))
	}
	cfg := &genai.GenerateContentConfig{
		// Continuation would resume a dropped stream behind our back; the
		// loop must see the drop instead.
		AutomaticContinuation: genai.Ptr(false),
	}
	if req.System != "" {
		cfg.SystemInstruction = genai.NewContentFromText(req.System, genai.RoleUser)
	}
	if len(req.Stop) > 0 {
		// The loop's own cut-off covers any stop sequence beyond the limit.
		cfg.StopSequences = req.Stop[:min(len(req.Stop), MaxStop)]
	}
	if req.MaxTokens > 0 {
		cfg.MaxOutputTokens = int32(min(req.MaxTokens, 1<<31-1))
	}
	if req.Reasoning != llm.ReasoningDefault {
		// A thinking budget of 0 turns thinking off (Flash); thoughts are
		// asked for so that the chat can show them, apart from the answer.
		cfg.ThinkingConfig = &genai.ThinkingConfig{
			ThinkingBudget:  genai.Ptr(int32(req.Reasoning.ThinkingBudget())),
			IncludeThoughts: req.Reasoning != llm.ReasoningOff,
		}
		if cfg.MaxOutputTokens > 0 {
			// Gemini counts thoughts in the output limit.
			cfg.MaxOutputTokens += int32(req.Reasoning.ThinkingBudget())
		}
	}
	return contents, cfg
}

// attempt makes one streaming request and turns its responses into chunks:
// text as it comes, then one chunk with the usage and the finish reason.
func (m *Model) attempt(ctx context.Context, contents []*genai.Content, cfg *genai.GenerateContentConfig) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		tap := &responseTap{}
		tctx := context.WithValue(ctx, tapKey{}, tap)
		var usage *llm.Usage
		finish := ""
		for resp, err := range m.client.Models.GenerateContentStream(tctx, m.model, contents, cfg) {
			if err != nil {
				yield(llm.Chunk{}, convertError(err, tap))
				return
			}
			if u := resp.UsageMetadata; u != nil {
				usage = &llm.Usage{
					InputTokens:    int(u.PromptTokenCount),
					OutputTokens:   int(u.CandidatesTokenCount + u.ThoughtsTokenCount),
					CachedTokens:   int(u.CachedContentTokenCount),
					ThinkingTokens: int(u.ThoughtsTokenCount),
				}
			}
			if pf := resp.PromptFeedback; pf != nil && pf.BlockReason != "" {
				finish = "blocked"
			}
			if len(resp.Candidates) == 0 || resp.Candidates[0] == nil {
				continue
			}
			cand := resp.Candidates[0]
			if text, thought := candidateText(cand); text != "" || thought != "" {
				if !yield(llm.Chunk{Text: text, Thought: thought}, nil) {
					return
				}
			}
			if cand.FinishReason != "" && cand.FinishReason != genai.FinishReasonUnspecified {
				finish = finishReason(cand.FinishReason)
			}
		}
		if finish == "" {
			// A clean end of stream without a finish reason is a reply cut
			// short (a proxy or the server gave up), not a complete answer.
			yield(llm.Chunk{}, fmt.Errorf("stream ended without a finish reason: %w", io.ErrUnexpectedEOF))
			return
		}
		yield(llm.Chunk{Usage: usage, Finish: finish}, nil)
	}
}

// candidateText joins the text parts of a candidate, and apart from them
// its thought parts: the protocol reads only what the model answers.
func candidateText(c *genai.Candidate) (text, thought string) {
	if c.Content == nil {
		return "", ""
	}
	var b, t strings.Builder
	for _, p := range c.Content.Parts {
		switch {
		case p == nil:
		case p.Thought:
			t.WriteString(p.Text)
		default:
			b.WriteString(p.Text)
		}
	}
	return b.String(), t.String()
}

func finishReason(r genai.FinishReason) string {
	switch r {
	case genai.FinishReasonStop:
		return "stop" // Gemini also says STOP when a stop sequence ended the reply
	case genai.FinishReasonMaxTokens:
		return "length"
	}
	return strings.ToLower(string(r))
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// RetryDelay is the retry delay the Gemini API puts in an error's details
// (google.rpc.RetryInfo), 0 if there is none.
func RetryDelay(details []map[string]any) time.Duration {
	for _, d := range details {
		if t, _ := d["@type"].(string); !strings.HasSuffix(t, "google.rpc.RetryInfo") {
			continue
		}
		if s, _ := d["retryDelay"].(string); s != "" {
			if dur, err := time.ParseDuration(s); err == nil && dur > 0 {
				return dur
			}
		}
	}
	return 0
}

package embedding

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/agentcli/agent/internal/backoff"
	"github.com/agentcli/agent/internal/secretval"
	"github.com/agentcli/agent/internal/termtext"
)

// openaiBatch is how many texts go in one /v1/embeddings request.
const openaiBatch = 256

// openaiURL is OpenAI's own API root, for an empty base URL.
const openaiURL = "https://api.openai.com/v1"

// The retries of one request: a rate limit, a server error or a broken
// connection is tried again up to twice, after the server's Retry-After
// or an exponential backoff (half a second, doubling, at most 8 s).
const (
	openaiAttempts  = 3
	openaiBaseDelay = 500 * time.Millisecond
	openaiMaxDelay  = 8 * time.Second
)

// openaiEmbedder embeds through an OpenAI-compatible /v1/embeddings, a
// small client over net/http: one endpoint, floats back.
type openaiEmbedder struct {
	o       Options
	url     string
	secrets secretval.Set // the key, never shown in an error
}

func newOpenAI(o Options) *openaiEmbedder {
	base := o.BaseURL
	if base == "" {
		base = openaiURL
	}
	return &openaiEmbedder{o: o, url: strings.TrimRight(base, "/") + "/embeddings", secrets: secretval.Of(nil, nil, []string{o.APIKey})}
}

// Model implements notes.Embedder.
func (e *openaiEmbedder) Model() string { return name("openai", e.o.Model, e.o.Dimensions) }

// embedRequest is the body of POST /embeddings.
type embedRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
	Dimensions     int      `json:"dimensions,omitempty"`
}

// embedResponse is its answer: one vector per input, by index.
type embedResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// Embed implements notes.Embedder. The vectors come as floats, which
// every compatible server speaks (base64 is OpenAI's own).
func (e *openaiEmbedder) Embed(ctx context.Context, texts []string, _ bool) ([][]float32, error) {
	return inBatches(texts, openaiBatch, func(batch []string) ([][]float32, error) {
		body, err := json.Marshal(embedRequest{Model: e.o.Model, Input: batch, EncodingFormat: "float", Dimensions: e.o.Dimensions})
		if err != nil {
			return nil, err
		}
		var resp embedResponse
		if err := e.post(ctx, body, &resp); err != nil {
			return nil, err
		}
		out := make([][]float32, len(batch))
		for _, d := range resp.Data {
			if d.Index >= 0 && d.Index < len(out) {
				out[d.Index] = d.Embedding
			}
		}
		return out, nil
	})
}

// post sends body and decodes the answer into v, trying again as the
// retries above allow.
func (e *openaiEmbedder) post(ctx context.Context, body []byte, v any) error {
	for try := 1; ; try++ {
		wait, err := e.once(ctx, body, v)
		if err == nil || wait < 0 || try == openaiAttempts || ctx.Err() != nil {
			if err != nil && try > 1 {
				err = fmt.Errorf("%w (after %d attempts)", err, try)
			}
			return err
		}
		if wait == 0 {
			wait = backoff.Delay(try, openaiBaseDelay, openaiMaxDelay, rand.Float64())
		}
		if err := backoff.Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// once makes one request. On failure it also says the wait before the
// next attempt: the server's Retry-After, 0 for a backoff, or -1 when
// another attempt cannot help (a wrong key, a bad request).
func (e *openaiEmbedder) once(ctx context.Context, body []byte, v any) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		return -1, err
	}
	req.Header.Set("Content-Type", "application/json")
	if e.o.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.o.APIKey)
	}
	resp, err := e.o.HTTPClient.Do(req)
	if err != nil {
		return 0, err // a broken connection: worth another attempt
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		// Redacted before it is cut: a key cut in half would show.
		err := fmt.Errorf("HTTP %d: %s", resp.StatusCode, termtext.Line(e.secrets.Redact(errorMessage(raw)), 200))
		switch s := resp.StatusCode; {
		case s == http.StatusRequestTimeout || s == http.StatusConflict || s == http.StatusTooManyRequests || s >= 500:
			return backoff.RetryAfter(resp.Header, time.Now()), err
		}
		return -1, err
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		return -1, fmt.Errorf("the answer is not a list of embeddings: %w", err)
	}
	return 0, nil
}

// errorMessage is the server's words in an error answer: error.message
// (OpenAI and most compatible servers), error as a string (Ollama,
// proxies), message (vLLM), or the body's text.
func errorMessage(raw []byte) string {
	var body struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(raw, &body) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(body.Error, &s) == nil && s != "":
			return s
		case json.Unmarshal(body.Error, &inner) == nil && inner.Message != "":
			return inner.Message
		case body.Message != "":
			return body.Message
		}
	}
	if text := strings.TrimSpace(string(raw)); text != "" {
		return text
	}
	return "no explanation"
}

package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/agentcli/agent/internal/backoff"
)

// errorBodyLimit bounds what is read of an error answer.
const errorBodyLimit = 64 << 10

// PostJSON sends body as JSON to url with header and returns the answer
// when its status is 200, for the caller to read and close. Any other
// answer is read, closed and returned as an *APIError: its status, its
// Retry-After, and the server's words (errorWords). hc should come from
// Client, so that an error page that is not the API's is worded too.
//
// The JSON keeps <, > and & as they are (encoding/json would write
// \u003c): tool calls and code travel in every request, and escaped they
// would make it longer for nothing.
func PostJSON(ctx context.Context, hc *http.Client, url string, header http.Header, body any) (*http.Response, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, &buf)
	if err != nil {
		return nil, err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusOK {
		return resp, nil
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, errorBodyLimit))
	if err != nil && len(raw) == 0 {
		return nil, err
	}
	e := errorWords(raw)
	e.Status, e.RetryAfter = resp.StatusCode, backoff.RetryAfter(resp.Header, time.Now())
	return nil, e
}

// errorWords reads an error answer's body in whichever shape the server
// sent it and returns an *APIError with its message (and the parameter
// it names, if any): the OpenAI and Anthropic shape {"error": {"message",
// "param"}} (OpenRouter adds the upstream provider's own words in
// error.metadata), {"error": "..."} (Ollama, many proxies), {"message":
// "..."} (vLLM), {"detail": "..."} (FastAPI servers), a JSON string, or
// anything else as its text. The caller sets the status.
func errorWords(raw []byte) *APIError {
	text := strings.TrimSpace(string(raw))
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return &APIError{Message: s}
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil && len(list) > 0 {
		raw = list[0] // Google's APIs answer some errors as a list of one
	}
	var body struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(raw, &body) != nil {
		return &APIError{Message: text}
	}
	var inner struct {
		Message  string `json:"message"`
		Param    string `json:"param"`
		Metadata struct {
			Raw      any    `json:"raw"`
			Provider string `json:"provider_name"`
		} `json:"metadata"`
	}
	switch {
	case json.Unmarshal(body.Error, &s) == nil && s != "":
		return &APIError{Message: s}
	case json.Unmarshal(body.Error, &inner) == nil && inner.Message != "":
		msg := inner.Message
		if up, ok := inner.Metadata.Raw.(string); ok && up != "" {
			msg = fmt.Sprintf("%s (%s: %s)", msg, orDefault(inner.Metadata.Provider, "upstream"), up)
		}
		return &APIError{Message: msg, Param: inner.Param}
	case body.Message != "":
		return &APIError{Message: body.Message}
	case json.Unmarshal(body.Detail, &s) == nil && s != "":
		return &APIError{Message: s}
	}
	return &APIError{Message: text}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

package gemini

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"google.golang.org/genai"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/internal/backoff"
)

// The genai SDK's APIError has the status and message but not the
// response headers, so Retry-After would be lost. A tap in the HTTP client
// copies the status and headers of an error response into the request's
// context, where convertError finds them.

type tapKey struct{}

// responseTap holds what the tap saw of the last error response.
type responseTap struct {
	status int
	header http.Header
}

type tapTransport struct{ base http.RoundTripper }

func (t tapTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if resp != nil && resp.StatusCode >= 400 {
		if tap, ok := r.Context().Value(tapKey{}).(*responseTap); ok {
			tap.status, tap.header = resp.StatusCode, resp.Header.Clone()
		}
	}
	return resp, err
}

// tapClient returns a client like c (or a default one) whose transport
// taps error responses.
func tapClient(c *http.Client) *http.Client {
	return llm.WrapTransport(c, func(base http.RoundTripper) http.RoundTripper { return tapTransport{base: base} })
}

// convertError turns the SDK's errors into what llm.Policy judges: an
// *llm.APIError for an error answer (from the status line or an error
// event in the stream), llm.ErrMalformed for data that is not the
// protocol, and anything else as it came (connection failures).
func convertError(err error, tap *responseTap) error {
	var ae genai.APIError
	var aep *genai.APIError
	switch {
	case errors.As(err, &ae):
	case errors.As(err, &aep) && aep != nil:
		ae = *aep
	default:
		// The SDK reports lines that are not "data:" events, and data that
		// is not JSON, as plain errors with these words.
		if s := err.Error(); strings.Contains(s, "invalid stream chunk") || strings.Contains(s, "error unmarshalling") {
			return fmt.Errorf("%w: %w", llm.ErrMalformed, err)
		}
		return err
	}
	status := ae.Code
	if status == 0 {
		status = tap.status
	}
	wait := backoff.RetryAfter(tap.header, time.Now())
	if wait == 0 {
		wait = RetryDelay(ae.Details)
	}
	msg := ae.Message
	if status == 0 {
		// An error event without a code: the server failed mid-stream.
		status = http.StatusInternalServerError
	}
	return &llm.APIError{Status: status, Message: msg, RetryAfter: wait, KeyInvalid: keyInvalid(ae.Details)}
}

// keyInvalid reports whether the error details say the API key is wrong:
// Gemini answers a bad key with 400 INVALID_ARGUMENT and a
// google.rpc.ErrorInfo detail whose reason is API_KEY_INVALID.
func keyInvalid(details []map[string]any) bool {
	for _, d := range details {
		if r, _ := d["reason"].(string); r == "API_KEY_INVALID" {
			return true
		}
	}
	return false
}

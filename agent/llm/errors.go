package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"syscall"
	"time"

	"github.com/agentcli/agent/internal/secretval"
	"github.com/agentcli/agent/internal/termtext"
)

// ErrStreamDropped marks a reply that broke off after some of its text had
// already been yielded. Such a reply is never retried here, because the
// caller has seen (and may have acted on) its beginning; the caller decides
// whether to ask again. Check with errors.Is.
var ErrStreamDropped = errors.New("stream dropped")

// APIError is a provider's HTTP error answer, normalised by each provider
// package (from its wire's error body, or Gemini's SDK's error type) so
// that the retry policy can judge it without knowing the wire.
type APIError struct {
	Status     int           // HTTP status code
	Message    string        // the server's explanation, if any
	RetryAfter time.Duration // how long the server asked us to wait; 0 if it did not say
	// KeyInvalid is true when the server said the key is wrong with
	// another status than 401 (Gemini: 400 with reason API_KEY_INVALID).
	KeyInvalid bool
	// HTML is true when the answer was a web page, not the API's own
	// error body; Message is then the page's title.
	HTML bool
	// Param is the request's parameter the server named as the cause
	// (OpenAI's error.param), when it named one.
	Param string
	// Fix is what the user should do, when the provider knows better
	// than the status says (Ollama's missing model: "run `ollama pull
	// NAME`"); "" words the advice from the status.
	Fix string
}

func (e *APIError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("status %d", e.Status)
	}
	return fmt.Sprintf("status %d: %s", e.Status, e.Message)
}

// Kind sorts provider failures by what the user can do about them.
type Kind int

// The kinds of provider failure.
const (
	KindAuth      Kind = iota + 1 // 401, 403: the key is wrong or lacks access
	KindRequest                   // other 4xx: the request (often the model name) is wrong
	KindRateLimit                 // 429 that outlasted the retries
	KindServer                    // 5xx that outlasted the retries
	KindNetwork                   // no connection, or it broke before any text
	KindTimeout                   // the provider sent nothing for too long
	KindMalformed                 // the answer was not the provider's protocol
)

// Error is a failed model call, worded for the user in one line that says
// which setting to check. The retry policy returns it once retries are
// exhausted or pointless.
type Error struct {
	Endpoint Endpoint
	Kind     Kind
	Status   int           // HTTP status, 0 for network failures and timeouts
	Message  string        // the provider's own words, shortened to one line
	Attempts int           // how many requests were made
	Waited   time.Duration // for KindTimeout: how long the silence lasted
	// HTML is true when the answer was a web page (a proxy's, a login
	// portal's) rather than the API's: Message is its title.
	HTML bool
	// Fix, when set, is the advice that ends the message (APIError.Fix).
	Fix string
	Err error // the underlying cause
	// secrets are hidden from the words (Policy.Secrets).
	secrets secretval.Set
}

func (e *Error) Unwrap() error { return e.Err }

// Error is the one line shown and stored, with every secret of the
// policy redacted (a provider may echo the key it was sent).
func (e *Error) Error() string { return e.secrets.Redact(e.words()) }

func (e *Error) words() string {
	ep := e.Endpoint
	name := ep.Provider
	tries := ""
	if e.Attempts > 1 {
		tries = fmt.Sprintf(" after %d attempts", e.Attempts)
	}
	msg := ""
	if e.Message != "" {
		msg = ": " + e.Message
	}
	if e.HTML {
		return fmt.Sprintf("HTTP %d from %s%s%s (an HTML page, not an API answer; check %s)",
			e.Status, name, tries, msg, ep.urlName())
	}
	switch e.Kind {
	case KindAuth:
		if e.Status == 401 {
			return fmt.Sprintf("%s rejected the API key (401): check %s", name, ep.keyName())
		}
		if e.Status != 403 {
			// A key refused with another status (Gemini's 400
			// API_KEY_INVALID), worded like the 401.
			return fmt.Sprintf("%s rejected the API key (%d%s): check %s", name, e.Status, msg, ep.keyName())
		}
		return fmt.Sprintf("%s refused access (%d%s): check %s", name, e.Status, msg, ep.keyName())
	case KindRequest:
		if e.Fix != "" {
			return fmt.Sprintf("%s rejected the request for model %q (%d%s): %s", name, ep.Model, e.Status, msg, e.Fix)
		}
		if e.Status == 404 {
			return fmt.Sprintf("%s does not know model %q or the address (404%s): check the model setting and %s",
				name, ep.Model, msg, ep.urlName())
		}
		return fmt.Sprintf("%s rejected the request (%d%s): check the model setting and %s",
			name, e.Status, msg, ep.urlName())
	case KindRateLimit:
		return fmt.Sprintf("%s rate limit (429)%s%s: wait and try again, or check the quota of %s",
			name, tries, msg, ep.keyName())
	case KindServer:
		return fmt.Sprintf("%s server error (%d)%s%s: try again later", name, e.Status, tries, msg)
	case KindTimeout:
		return fmt.Sprintf("no answer from %s for %s (model_timeout)%s; check the network and %s, or raise model_timeout",
			name, DurationText(e.Waited), tries, ep.urlName())
	case KindMalformed:
		return fmt.Sprintf("%s sent a malformed stream%s%s: check %s", name, tries, causeText(e.Err, e.secrets), ep.urlName())
	default:
		if ep.Local != "" && errors.Is(e.Err, syscall.ECONNREFUSED) {
			return fmt.Sprintf("%s is not running at %s (connection refused%s): start it, or check %s",
				ep.Local, ep.baseURL(), tries, ep.urlName())
		}
		return fmt.Sprintf("cannot reach %s at %s%s%s: check %s", name, ep.baseURL(), tries, causeText(e.Err, e.secrets), ep.urlName())
	}
}

// DropError is returned when a stream broke off after text was yielded.
// errors.Is(err, ErrStreamDropped) reports true for it.
type DropError struct {
	Provider string
	Received int   // bytes of text yielded before the drop
	Err      error // what broke the stream
	secrets  secretval.Set
}

func (e *DropError) Error() string {
	return e.secrets.Redact(fmt.Sprintf("%s stream dropped after %d bytes of text%s", e.Provider, e.Received, causeText(e.Err, e.secrets)))
}

// Is makes errors.Is(err, ErrStreamDropped) true.
func (e *DropError) Is(target error) bool { return target == ErrStreamDropped }

func (e *DropError) Unwrap() error { return e.Err }

// causeText is ": cause" with the cause squeezed onto one short line,
// without the secrets (redacted before the cut, which could halve one).
func causeText(err error, secrets secretval.Set) string {
	if err == nil {
		return ""
	}
	return ": " + termtext.Line(secrets.Redact(detail(err)), 200)
}

// detail is the part of an error chain a user can act on: the JSON
// problem, or the network operation that failed, without the layers of
// SDK context around it.
func detail(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var op *net.OpError
	var ue *url.Error
	switch {
	case errors.As(err, &syn):
		return "invalid JSON: " + syn.Error()
	case errors.As(err, &typ):
		return "unexpected JSON: " + typ.Error()
	case errors.As(err, &op):
		return op.Error()
	case errors.As(err, &ue):
		return ue.Err.Error()
	}
	return err.Error()
}

// DurationText says a duration the way people read it: "800 ms", "30 s",
// "2 min".
func DurationText(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Round(time.Second).Seconds()))
	}
	return fmt.Sprintf("%.0f min", d.Minutes())
}

package llm

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"net"
	"time"

	"github.com/agentcli/agent/internal/backoff"
	"github.com/agentcli/agent/internal/secretval"
	"github.com/agentcli/agent/internal/termtext"
)

// Endpoint names what a provider talks to and which settings configure it,
// so that a failure can say what to fix.
type Endpoint struct {
	Provider   string // the provider's name, as the configuration calls it
	Model      string
	BaseURL    string // "" means the SDK's default address
	KeySetting string // where the key comes from, e.g. "GEMINI_API_KEY"
	URLSetting string // where the address comes from, e.g. "GOOGLE_GEMINI_BASE_URL or base_url"
	// Local names the server program when it runs on the user's own
	// machine ("Ollama", "llama.cpp"): a refused connection then says
	// that it is not running, rather than that the network failed.
	Local string
}

func (ep Endpoint) keyName() string {
	if ep.KeySetting == "" {
		return "the API key"
	}
	return ep.KeySetting
}

func (ep Endpoint) urlName() string {
	if ep.URLSetting == "" {
		return "base_url"
	}
	return ep.URLSetting
}

func (ep Endpoint) baseURL() string {
	if ep.BaseURL == "" {
		return "its default address"
	}
	return ep.BaseURL
}

// Defaults of Policy, used for its zero fields.
const (
	DefaultAttempts  = 3
	DefaultBaseDelay = time.Second
	DefaultMaxDelay  = 20 * time.Second
	DefaultMaxTime   = 2 * time.Minute
	DefaultTimeout   = 2 * time.Minute
)

// Policy says how one model call copes with a slow or failing provider:
// 429, 5xx and broken connections are retried with exponential backoff and
// jitter (or after the server's Retry-After), bounded in count and in total
// time; other client errors are not retried at all. Zero fields take the
// defaults above.
type Policy struct {
	Attempts  int           // requests in all, the first included
	BaseDelay time.Duration // wait before the first retry; doubles each time
	MaxDelay  time.Duration // cap of the computed wait (a Retry-After may exceed it)
	MaxTime   time.Duration // no retry starts after this much time since the first request
	// Timeout is the longest silence allowed: from the request to the first
	// output, and between two outputs (the model_timeout setting). A
	// provider silent before any text is asked again at once, like a
	// broken connection; one silent after text is a *DropError.
	Timeout time.Duration

	// Sleep waits d or until ctx is done; nil means a real timer. Tests
	// replace it to record the waits without spending them.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter returns a number in [0, 1); nil means math/rand/v2.
	Jitter func() float64
	// Secrets are the agent's own secrets (the keys, the serve token):
	// an error answer that echoes one (a provider or proxy quoting the
	// key it was sent) never shows it, on the screen or in a log.
	Secrets secretval.Set
}

// Attempt makes one request of a call and yields its reply. Errors that
// came from the server as an HTTP status must be (or wrap) *APIError.
type Attempt func(ctx context.Context) iter.Seq2[Chunk, error]

// silenceError is the cause of an attempt cancelled by Policy.Timeout.
type silenceError struct{ waited time.Duration }

func (e *silenceError) Error() string {
	return fmt.Sprintf("no answer for %s (model_timeout)", DurationText(e.waited))
}

// Stream runs attempt until it succeeds, retrying as the policy allows, and
// yields the reply of the attempt that got through. Once text has been
// yielded nothing is retried: a later failure is a *DropError. Other
// failures are *Error, worded with ep; a cancelled ctx ends the stream with
// ctx.Err() at once.
func (p Policy) Stream(ctx context.Context, ep Endpoint, attempt Attempt) iter.Seq2[Chunk, error] {
	p = p.withDefaults()
	return func(yield func(Chunk, error) bool) {
		start := time.Now()
		silenceRetried := false
		for try := 1; ; try++ {
			received, err := p.try(ctx, attempt, yield)
			if err == nil {
				return
			}
			if errors.Is(err, errStop) {
				return // the consumer stopped
			}
			if ctx.Err() != nil {
				yield(Chunk{}, ctx.Err())
				return
			}
			if received > 0 {
				yield(Chunk{}, &DropError{Provider: ep.Provider, Received: received, Err: err, secrets: p.Secrets})
				return
			}
			f := p.judge(err, ep, try)
			if !f.retry || try >= p.Attempts {
				yield(Chunk{}, f.err)
				return
			}
			wait := f.after
			if wait <= 0 && !f.now {
				wait = p.backoff(try)
			}
			// A silence is asked again once even past MaxTime, as a stream
			// dropped after its first byte is: with the default
			// model_timeout equal to max_time it would never be retried.
			if time.Since(start)+wait > p.MaxTime && (!f.now || silenceRetried) {
				yield(Chunk{}, f.err)
				return
			}
			silenceRetried = silenceRetried || f.now
			if notify, ok := ctx.Value(notifyKey{}).(func(RetryNotice)); ok {
				notify(RetryNotice{Attempt: try, Attempts: p.Attempts, Wait: wait, Err: f.err})
			}
			if wait <= 0 {
				continue
			}
			if err := p.Sleep(ctx, wait); err != nil {
				yield(Chunk{}, ctx.Err())
				return
			}
		}
	}
}

// errStop reports that the consumer stopped iterating.
var errStop = errors.New("consumer stopped")

// try runs one attempt under the silence timer. It returns how many bytes
// of text it yielded and why it ended (nil: the reply is complete).
func (p Policy) try(ctx context.Context, attempt Attempt, yield func(Chunk, error) bool) (int, error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	silent := &silenceError{waited: p.Timeout}
	timer := time.AfterFunc(p.Timeout, func() { cancel(silent) })
	defer timer.Stop()
	received := 0
	for c, err := range attempt(actx) {
		if err != nil {
			if context.Cause(actx) == silent && ctx.Err() == nil {
				return received, silent
			}
			return received, err
		}
		// The consumer's time is not the provider's silence.
		if !timer.Stop() {
			return received, silent
		}
		received += len(c.Text)
		if !yield(c, nil) {
			return received, errStop
		}
		timer.Reset(p.Timeout)
	}
	if context.Cause(actx) == silent {
		return received, silent
	}
	return received, nil
}

// failure is the verdict on a failed attempt.
type failure struct {
	err   *Error
	retry bool
	after time.Duration // the server's Retry-After
	// now retries without a backoff: the silence was the wait.
	now bool
}

// judge decides whether err is worth another attempt and words it.
func (p Policy) judge(err error, ep Endpoint, try int) failure {
	e := &Error{Endpoint: ep, Attempts: try, Err: err, secrets: p.Secrets}
	var api *APIError
	switch {
	case errors.As(err, &api):
		e.Status, e.HTML, e.Fix = api.Status, api.HTML, p.Secrets.Redact(api.Fix)
		// Redacted before it is cut: a key cut in half would show.
		e.Message = termtext.Line(p.Secrets.Redact(api.Message), 160)
		switch s := api.Status; {
		case s == 401 || s == 403 || api.KeyInvalid:
			e.Kind = KindAuth
		case s == 429:
			e.Kind = KindRateLimit
			return failure{err: e, retry: true, after: api.RetryAfter}
		case s == 408 || s >= 500:
			e.Kind = KindServer
			return failure{err: e, retry: true, after: api.RetryAfter}
		default:
			e.Kind = KindRequest
		}
		return failure{err: e}
	case errors.As(err, new(*silenceError)):
		// A hang before the first byte is as curable as a drop: a new
		// request may reach a server that answers.
		e.Kind, e.Waited = KindTimeout, p.Timeout
		return failure{err: e, retry: true, now: true}
	case isMalformed(err):
		e.Kind = KindMalformed
		return failure{err: e, retry: true}
	default:
		e.Kind = KindNetwork
		return failure{err: e, retry: !isPermanentNetError(err)}
	}
}

// ErrMalformed marks an answer that does not follow the provider's wire
// protocol. Provider packages wrap it around decoding errors that are
// not JSON syntax or type errors (Gemini's SDK's own words).
var ErrMalformed = errors.New("malformed answer")

func isMalformed(err error) bool {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	return errors.Is(err, ErrMalformed) || errors.As(err, &syn) || errors.As(err, &typ)
}

// isPermanentNetError reports connection failures that no retry can cure:
// an unknown host or a certificate the system rejects. (Unusable URLs are
// refused before any request, when the provider is built.)
func isPermanentNetError(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return true
	}
	var unknownAuth x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	if errors.As(err, &unknownAuth) || errors.As(err, &hostname) || errors.As(err, &invalid) || errors.As(err, &verify) {
		return true
	}
	return false
}

// backoff is the computed wait before retry number try (backoff.Delay).
func (p Policy) backoff(try int) time.Duration {
	return backoff.Delay(try, p.BaseDelay, p.MaxDelay, p.Jitter())
}

func (p Policy) withDefaults() Policy {
	if p.Attempts <= 0 {
		p.Attempts = DefaultAttempts
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = DefaultBaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = DefaultMaxDelay
	}
	if p.MaxTime <= 0 {
		p.MaxTime = DefaultMaxTime
	}
	if p.Timeout <= 0 {
		p.Timeout = DefaultTimeout
	}
	if p.Sleep == nil {
		p.Sleep = backoff.Sleep
	}
	if p.Jitter == nil {
		p.Jitter = rand.Float64
	}
	return p
}

// RetryNotice tells that a model call failed and will be tried again.
type RetryNotice struct {
	Attempt  int           // the attempt that failed, from 1
	Attempts int           // the most attempts that will be made
	Wait     time.Duration // the wait before the next attempt
	Err      *Error        // why it failed
}

type notifyKey struct{}

// WithRetryNotify returns a context whose model calls report each retry to
// f before waiting, so that an interface can say "rate limited, retrying
// in 20s" instead of going quiet. f runs on the streaming goroutine.
func WithRetryNotify(ctx context.Context, f func(RetryNotice)) context.Context {
	return context.WithValue(ctx, notifyKey{}, f)
}

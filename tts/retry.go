package tts

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/agentcli/agent/internal/backoff"
)

// Retry bounds the retries of one engine request: rate limits (429),
// server errors (5xx) and broken connections are tried again with
// exponential backoff and jitter, or after the wait the server asked for;
// other failures are not: the chat providers' policy (internal/backoff).
type Retry struct {
	Attempts  int           // requests in all; 0 means 3
	BaseDelay time.Duration // first wait, doubled each time; 0 means 1s
	MaxDelay  time.Duration // cap of a computed wait; 0 means 20s
	// MaxWait is the longest server-asked wait worth waiting; 0 means
	// 60s. A longer one fails at once (a quota for the day).
	MaxWait time.Duration
	// Sleep waits d or until ctx is done; nil is backoff.Sleep. Tests
	// record the waits instead of spending them.
	Sleep func(ctx context.Context, d time.Duration) error
}

// retryError marks a failure worth another attempt.
type retryError struct {
	err   error
	after time.Duration // the server's requested wait, if any
}

func (e *retryError) Error() string { return e.err.Error() }
func (e *retryError) Unwrap() error { return e.err }

func retryable(err error) error { return &retryError{err: err} }

// do runs f until it succeeds, fails for good, or the attempts run out.
// The error returned is the last one, without the retry mark.
func (r Retry) do(ctx context.Context, f func(context.Context) error) error {
	attempts := cmp(r.Attempts, 3)
	base := cmpD(r.BaseDelay, time.Second)
	maxDelay := cmpD(r.MaxDelay, 20*time.Second)
	maxWait := cmpD(r.MaxWait, time.Minute)
	for try := 1; ; try++ {
		err := f(ctx)
		var re *retryError
		if err == nil || !errors.As(err, &re) {
			return err
		}
		if try >= attempts || ctx.Err() != nil || re.after > maxWait {
			return re.err
		}
		wait := re.after
		if wait == 0 {
			wait = backoff.Delay(try, base, maxDelay, rand.Float64())
		}
		sleep := r.Sleep
		if sleep == nil {
			sleep = backoff.Sleep
		}
		if err := sleep(ctx, wait); err != nil {
			return err
		}
	}
}

func cmp(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

func cmpD(v, def time.Duration) time.Duration {
	if v <= 0 {
		return def
	}
	return v
}

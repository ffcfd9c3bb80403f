package tts

import (
	"context"
	"errors"
	"testing"
	"time"
)

// waits records the waits of a Retry instead of spending them.
type waits []time.Duration

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	*w = append(*w, d)
	return ctx.Err()
}

func TestRetryWaitsAndGivesUp(t *testing.T) {
	var w waits
	r := Retry{Attempts: 3, BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second, Sleep: w.sleep}
	boom := errors.New("503")
	calls := 0
	err := r.do(t.Context(), func(context.Context) error { calls++; return retryable(boom) })
	if !errors.Is(err, boom) || calls != 3 {
		t.Fatalf("do = %v after %d calls, want the last error after 3", err, calls)
	}
	if len(w) != 2 || w[0] < 50*time.Millisecond || w[0] > 100*time.Millisecond || w[1] < 100*time.Millisecond || w[1] > 200*time.Millisecond {
		t.Errorf("waits = %v, want two, doubling from 100 ms with jitter", w)
	}
}

func TestRetryTakesTheServersWait(t *testing.T) {
	var w waits
	r := Retry{Sleep: w.sleep}
	calls := 0
	err := r.do(t.Context(), func(context.Context) error {
		calls++
		if calls == 1 {
			return &retryError{err: errors.New("429"), after: 7 * time.Second}
		}
		return nil
	})
	if err != nil || len(w) != 1 || w[0] != 7*time.Second {
		t.Errorf("do = %v, waits %v; want one wait of the server's 7 s, then success", err, w)
	}
	// A wait longer than MaxWait (a quota for the day) fails at once.
	w = nil
	err = r.do(t.Context(), func(context.Context) error { return &retryError{err: errors.New("quota"), after: time.Hour} })
	if err == nil || len(w) != 0 {
		t.Errorf("do with an hour to wait = %v, waits %v; want the error at once", err, w)
	}
}

func TestRetryLeavesOtherErrorsAlone(t *testing.T) {
	var w waits
	calls := 0
	err := Retry{Sleep: w.sleep}.do(t.Context(), func(context.Context) error { calls++; return errors.New("400") })
	if err == nil || calls != 1 || len(w) != 0 {
		t.Errorf("do = %v after %d calls and waits %v; want one call, no retry", err, calls, w)
	}
}

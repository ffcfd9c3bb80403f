// Package backoff is the wait between the attempts of a request that
// failed in a way worth trying again (a rate limit, a server error, a
// broken connection): exponential, capped, and jittered, so that many
// clients turned away together do not come back together. The chat
// providers (agent/llm) and the speech engines (tts) share it; it
// depends on the standard library only.
package backoff

import (
	"context"
	"time"
)

// Delay is the wait before retry number try (1 for the first retry):
// base doubled per retry, capped at max, with its upper half scaled by
// jitter, a number in [0, 1) (math/rand/v2's Float64; tests pass a fixed
// one).
func Delay(try int, base, max time.Duration, jitter float64) time.Duration {
	d := base
	for i := 1; i < try && d < max; i++ {
		d *= 2
	}
	d = min(d, max)
	return d/2 + time.Duration(jitter*float64(d/2))
}

// Sleep waits d, or until ctx is done, and then returns ctx's error.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

package backoff

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryAfter reads how long a server asked the client to wait before trying
// again: the "retry-after-ms" header (OpenAI, Anthropic) or "Retry-After" in
// seconds (fractions allowed) or as an HTTP date. It returns 0 when the
// header is absent, unreadable or in the past. The chat providers and the
// embedding clients share it.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil {
			return clampWait(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return clampWait(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return clampWait(float64(t.Sub(now)))
	}
	return 0
}

// clampWait turns a float count of nanoseconds into a Duration, refusing
// negative, NaN and absurd values (a year stands for "too long").
func clampWait(ns float64) time.Duration {
	const limit = float64(365 * 24 * time.Hour)
	switch {
	case math.IsNaN(ns) || ns <= 0:
		return 0
	case ns > limit:
		return time.Duration(limit)
	}
	return time.Duration(ns)
}

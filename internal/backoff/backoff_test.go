package backoff

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestDelay(t *testing.T) {
	base, max := 100*time.Millisecond, time.Second
	for _, tc := range []struct {
		try    int
		jitter float64
		want   time.Duration
	}{
		{1, 0, 50 * time.Millisecond},
		{1, 0.999999, 100 * time.Millisecond},
		{2, 0, 100 * time.Millisecond},
		{3, 0, 200 * time.Millisecond},
		{3, 0.5, 300 * time.Millisecond},
		{5, 0, 500 * time.Millisecond}, // 1.6s capped at 1s
		{40, 0, 500 * time.Millisecond},
	} {
		got := Delay(tc.try, base, max, tc.jitter)
		if got < tc.want-time.Millisecond || got > tc.want {
			t.Errorf("Delay(%d) with jitter %v = %v, want %v", tc.try, tc.jitter, got, tc.want)
		}
	}
}

func TestSleepEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep with a cancelled context = %v, want context.Canceled", err)
	}
	if err := Sleep(t.Context(), time.Microsecond); err != nil {
		t.Errorf("Sleep = %v", err)
	}
}

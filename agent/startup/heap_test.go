package startup

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestDelayFirstGC checks that GOGC is startHeapPercent until a
// collection has run and then back to what it was, and that a GOGC the
// user set is left alone.
func TestDelayFirstGC(t *testing.T) {
	if v, ok := os.LookupEnv("GOGC"); ok {
		os.Unsetenv("GOGC")
		t.Cleanup(func() { os.Setenv("GOGC", v) })
	}
	prev := debug.SetGCPercent(150)
	t.Cleanup(func() { debug.SetGCPercent(prev) })

	DelayFirstGC()
	if got := gcPercent(); got != startHeapPercent {
		t.Fatalf("GOGC after DelayFirstGC = %d, want %d", got, startHeapPercent)
	}
	deadline := time.Now().Add(5 * time.Second)
	for gcPercent() != 150 {
		if time.Now().After(deadline) {
			t.Fatalf("GOGC still %d after collections, want 150 again", gcPercent())
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}

	t.Setenv("GOGC", "150")
	DelayFirstGC()
	if got := gcPercent(); got != 150 {
		t.Errorf("with GOGC set, GOGC after DelayFirstGC = %d, want 150", got)
	}
}

// gcPercent reads the current GOGC.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

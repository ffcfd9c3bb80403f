package chat

import (
	"runtime/debug"
	"testing"

	"github.com/agentcli/agent/agent/startup"
)

// TestPrepareRestoresCollector: the collector paused by Prepare is back
// at its setting when the chat has settled.
func TestPrepareRestoresCollector(t *testing.T) {
	old := debug.SetGCPercent(73)
	defer debug.SetGCPercent(old)
	limit := debug.SetMemoryLimit(-1)
	Prepare()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Fatalf("after Prepare the collector is at %d%%, want paused", p)
	}
	if l := debug.SetMemoryLimit(-1); l != 64<<20 {
		t.Fatalf("after Prepare the memory limit is %d, want 64 MiB", l)
	}
	b := newTestConv(t)
	h := newHarness(t, b, Options{})
	h.until("settled", func() bool { return !startup.GCPaused() })
	if p := debug.SetGCPercent(73); p != 73 {
		t.Errorf("after the chat settled the collector is at %d%%, want 73", p)
	}
	if l := debug.SetMemoryLimit(-1); l != limit {
		t.Errorf("after the chat settled the memory limit is %d, want %d", l, limit)
	}
}

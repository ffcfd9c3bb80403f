package startup

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync"
)

// startHeapPercent is the GOGC of the process until its first garbage
// collection. Go collects first when the heap reaches 4 MiB × GOGC/100,
// and the provider SDKs' package initialisation alone allocates about
// 2 MiB, so at the default of 100 even a one-question `agent run`
// collects once. That cycle frees about half a megabyte but costs more
// resident memory than it saves: the collector's work buffers, and the
// stack maps, type data and code it reads from the binary (about 2 MB of
// peak RSS in all, see cmd/agent/bench). At 200 the first collection
// waits for an 8 MiB heap; from then on the process collects as GOGC
// says. The Go compiler does the same (cmd/compile's AdjustStartingHeap).
const startHeapPercent = 200

// DelayFirstGC raises GOGC to startHeapPercent until the first garbage
// collection, unless the user set GOGC. Call it first thing in main.
func DelayFirstGC() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	prev := debug.SetGCPercent(startHeapPercent)
	// The finalizer runs once the first collection has found the
	// sentinel unreachable. (It holds a pointer so that it is not a tiny
	// allocation, whose finalizer may never run.)
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) { debug.SetGCPercent(prev) })
}

type sentinel struct{ _ *byte }

// chatHeapLimit bounds the memory the paused collector lets grow: a large
// project's conversation (its file tree) still gets collected.
const chatHeapLimit = 64 << 20

var (
	pauseMu       sync.Mutex
	pausedPercent = -2 // the collector's setting before PauseGC; -2: not paused
	memLimit      int64
)

// PauseGC stops the garbage collector, unless the heap reaches 64 MB,
// until ResumeGC: start-up leaves a few MB of garbage, and its first
// collection (5 ms of a core here) would otherwise fall on the way to
// the chat's first frame. A second call before ResumeGC does nothing.
func PauseGC() {
	pauseMu.Lock()
	defer pauseMu.Unlock()
	if pausedPercent == -2 {
		memLimit = debug.SetMemoryLimit(chatHeapLimit)
		pausedPercent = debug.SetGCPercent(-1)
	}
}

// ResumeGC undoes PauseGC; it does nothing when the collector is not
// paused.
func ResumeGC() {
	pauseMu.Lock()
	defer pauseMu.Unlock()
	if pausedPercent != -2 {
		debug.SetGCPercent(pausedPercent)
		debug.SetMemoryLimit(memLimit)
		pausedPercent = -2
	}
}

// GCPaused reports whether PauseGC's pause is in force.
func GCPaused() bool {
	pauseMu.Lock()
	defer pauseMu.Unlock()
	return pausedPercent != -2
}

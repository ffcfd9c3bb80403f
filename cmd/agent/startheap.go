package main

import (
	"os"
	"runtime"
	"runtime/debug"
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

// delayFirstGC raises GOGC to startHeapPercent until the first garbage
// collection, unless the user set GOGC.
func delayFirstGC() {
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

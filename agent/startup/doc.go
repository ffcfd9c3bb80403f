// Package startup holds the process's start-up tricks, each paid for by
// every command of the binary, in one place:
//
//   - DelayFirstGC (called first thing in main): the provider SDKs'
//     package initialisation leaves about 2 MiB of heap, and at the
//     default GOGC even a one-question `agent run` collects once, which
//     costs more resident memory than it saves; the first collection
//     waits for a larger heap.
//   - PauseGC and ResumeGC (the chat, through chat.Prepare): the collector
//     waits until the chat's first frame is drawn, since its first cycle
//     would otherwise fall on the way to the prompt.
//   - package quiet (imported by the chat): TMUX is hidden while lipgloss
//     initialises, so that its colour detection does not run `tmux info`
//     before main; its documentation says why its init runs first.
//
// Measure a change with GODEBUG=inittrace=1 bin/agent version and the
// start-up benchmarks in cmd/agent/bench.
package startup

package tui

import (
	"runtime/debug"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mattn/go-runewidth"
)

// settleDelay is how long after start the chat does what it put off so
// as not to slow the first frame: well after that frame.
const settleDelay = 150 * time.Millisecond

// startLimit bounds the memory the paused collector lets grow: a large
// project's conversation (its file tree) still gets collected.
const startLimit = 64 << 20

var (
	prepared  sync.Once
	gcPercent = -2 // the collector's setting before Prepare; -2: untouched
	memLimit  int64
)

// Prepare readies the process for the chat's first frame. Call it as the
// chat command starts, before the conversation is built:
//
//   - the garbage collector waits until the prompt is drawn (unless the
//     heap reaches 64 MB): start-up leaves a few MB of garbage, and its
//     first collection (5 ms of a core here) would otherwise fall on the
//     way to the first frame;
//   - go-runewidth's 2 MB table of character widths, which the renderer
//     needs for the first character past U+0300 (the prompt's ›), is
//     built on the other core meanwhile.
//
// The chat puts the collector back settleDelay after it starts, or when it
// ends.
func Prepare() {
	prepared.Do(func() {
		memLimit = debug.SetMemoryLimit(startLimit)
		gcPercent = debug.SetGCPercent(-1)
		go runewidth.RuneWidth('›')
	})
}

// restoreGC undoes Prepare's pause of the collector.
func restoreGC() {
	if gcPercent != -2 {
		debug.SetGCPercent(gcPercent)
		debug.SetMemoryLimit(memLimit)
		gcPercent = -2
	}
}

// settledMsg comes settleDelay after the chat starts.
type settledMsg struct{}

func settleTick() tea.Cmd {
	return tea.Tick(settleDelay, func(time.Time) tea.Msg { return settledMsg{} })
}

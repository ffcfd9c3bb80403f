package chat

import (
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentcli/agent/agent/startup"
	"github.com/charmbracelet/x/ansi"
)

// settleDelay is how long after start the chat does what it put off so
// as not to slow the first frame: well after that frame.
const settleDelay = 150 * time.Millisecond

// Prepare readies the process for the chat's first frame. Call it as the
// chat command starts, before the conversation is built:
//
//   - the garbage collector waits until the prompt is drawn
//     (startup.PauseGC);
//   - the 2 MB table of character widths behind x/ansi's WcWidth, which
//     the renderer needs for the first character past U+0300 (the
//     prompt's ›), is built on the other core meanwhile.
//
// The chat puts the collector back settleDelay after it starts, or when it
// ends.
func Prepare() {
	startup.PauseGC()
	prepared.Do(func() { go ansi.WcWidth.StringWidth("›") })
}

var prepared sync.Once

// settledMsg comes settleDelay after the chat starts.
type settledMsg struct{}

func settleTick() tea.Cmd {
	return tea.Tick(settleDelay, func(time.Time) tea.Msg { return settledMsg{} })
}

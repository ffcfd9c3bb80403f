package chat

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/internal/termtext"
)

// longTurn is how long a turn must have run for its end to ring: the
// end of a quick one is seen by whoever asked.
const longTurn = 10 * time.Second

// The ways the chat rings, once chat.notify is resolved for the
// terminal (NotifyWay).
const (
	ringOff  = ""
	ringBell = "bell"
	ringOSC9 = "osc9"
)

// NotifyWay is how the chat rings on this terminal for the chat.notify
// setting: auto is a desktop notification (OSC 9) on the terminals known
// to show one, by TERM_PROGRAM, TERM or Windows Terminal's WT_SESSION,
// and the bell elsewhere (tmux and screen included: they pass the bell
// on, not OSC 9). getenv reads the environment.
func NotifyWay(setting string, getenv func(string) string) string {
	switch setting {
	case config.ChatNotifyOff:
		return ringOff
	case config.ChatNotifyBell:
		return ringBell
	case config.ChatNotifyOSC9:
		return ringOSC9
	}
	if getenv("TMUX") != "" || getenv("STY") != "" {
		return ringBell
	}
	switch getenv("TERM_PROGRAM") {
	case "iTerm.app", "WezTerm", "ghostty":
		return ringOSC9
	}
	switch getenv("TERM") {
	case "xterm-kitty", "xterm-ghostty", "wezterm":
		return ringOSC9
	}
	if getenv("WT_SESSION") != "" {
		return ringOSC9
	}
	return ringBell
}

// bell is what the chat knows to decide whether to ring: the way, and
// whether the terminal has lost focus (its focus reports; a terminal
// that sends none is taken as looked at, and never rings).
type bell struct {
	way     string
	blurred bool
}

// ring is the command that calls the person for n, nil when the chat
// should not: they are looking, or the turn that ended was short
// (ran, the time it took).
func (b bell) ring(n *agent.Notification, ran time.Duration) tea.Cmd {
	if b.way == ringOff || !b.blurred || n == nil || n.Kind == agent.NotifyDone && ran < longTurn {
		return nil
	}
	if b.way == ringBell {
		return tea.Raw("\a")
	}
	// The message may quote the model (a question): one line, escaped,
	// so that nothing in it ends the sequence or reaches the terminal.
	return tea.Raw("\x1b]9;agent: " + termtext.Line(n.Message, 200) + "\a")
}

// focus takes the terminal's focus report.
func (m *Model) focus(msg tea.Msg) {
	_, m.bell.blurred = msg.(tea.BlurMsg)
}

// notify rings, when it should, for an EventNotification of the loop:
// a call's approval or the model's question waits, or a turn ended.
func (m *Model) notify(e agent.Event) tea.Cmd {
	if e.Type != agent.EventNotification {
		return nil
	}
	return m.bell.ring(e.Notification, m.opts.Now().Sub(m.turnStart))
}

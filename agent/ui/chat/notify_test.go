package chat

import (
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

func TestNotifyWay(t *testing.T) {
	for _, c := range []struct {
		setting string
		env     map[string]string
		want    string
	}{
		{"off", map[string]string{"TERM_PROGRAM": "iTerm.app"}, ringOff},
		{"bell", map[string]string{"TERM_PROGRAM": "iTerm.app"}, ringBell},
		{"osc9", nil, ringOSC9},
		{"auto", map[string]string{"TERM_PROGRAM": "iTerm.app"}, ringOSC9},
		{"auto", map[string]string{"TERM_PROGRAM": "WezTerm"}, ringOSC9},
		{"auto", map[string]string{"TERM_PROGRAM": "ghostty"}, ringOSC9},
		{"auto", map[string]string{"TERM": "xterm-kitty"}, ringOSC9},
		{"auto", map[string]string{"WT_SESSION": "1f6f"}, ringOSC9},
		{"auto", map[string]string{"TERM": "xterm-256color"}, ringBell},
		{"auto", map[string]string{"TERM_PROGRAM": "iTerm.app", "TMUX": "/tmp/tmux-1/default,1,0"}, ringBell},
		{"auto", map[string]string{"TERM_PROGRAM": "Apple_Terminal"}, ringBell},
	} {
		if got := NotifyWay(c.setting, func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("NotifyWay(%q, %v) = %q, want %q", c.setting, c.env, got, c.want)
		}
	}
}

// clock is a time the test moves.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.now = c.now.Add(d) }

const writeA = `<tool_call name="write_file"><operation_type>create</operation_type><file_path>a.txt</file_path><content>a</content></tool_call>`

// TestBellRingsWhenNobodyLooks: with the terminal's focus lost, the
// chat rings when an approval waits and when a turn of more than 10 s
// ends, not when a short one does; while the terminal has the focus it
// never rings.
func TestBellRingsWhenNobodyLooks(t *testing.T) {
	c := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	b := newTestConv(t, reply(writeA), reply("Written."), reply("Slow answer."), reply("Seen."))
	h := newHarness(t, b, Options{Notify: ringBell, Now: c.Now})
	if !h.m.View().ReportFocus {
		t.Error("the chat does not ask for focus reports")
	}
	h.deliver(tea.BlurMsg{})
	h.say("write a.txt")
	h.until("the approval", func() bool { return h.m.ask != nil })
	if strings.Join(h.raw, "|") != "\a" {
		t.Errorf("while the approval waits the chat wrote %q, want one bell", h.raw)
	}
	h.typeText("y")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Written.") })
	if len(h.raw) != 1 {
		t.Errorf("a short turn's end rang: %q", h.raw)
	}

	h.say("take your time")
	c.add(11 * time.Second)
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Slow answer.") })
	if strings.Join(h.raw, "|") != "\a|\a" {
		t.Errorf("a long turn's end: %q, want a second bell", h.raw)
	}

	h.deliver(tea.FocusMsg{})
	h.say("again")
	c.add(11 * time.Second)
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Seen.") })
	if len(h.raw) != 2 {
		t.Errorf("rang with the focus back: %q", h.raw)
	}
}

// TestDesktopNotificationOfAQuestion: the OSC 9 way says what waits,
// the model's words escaped so that they cannot end the sequence.
func TestDesktopNotificationOfAQuestion(t *testing.T) {
	b := newTestConv(t, reply("<tool_call name=\"ask_user\"><question>Which \x1b]2;x\x07 one?</question></tool_call>"), reply("Fine."))
	h := newHarness(t, b, Options{Notify: ringOSC9})
	h.deliver(tea.BlurMsg{})
	h.say("choose")
	h.until("the question", func() bool { return h.m.userq != nil })
	if strings.Join(h.raw, "|") != "\x1b]9;agent: Which \\x1b]2;x\\x07 one?\a" {
		t.Errorf("the chat wrote %q", h.raw)
	}
	h.typeText("this one")
	h.press(tea.KeyEnter)
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Fine.") })
}

// TestNoFocusReportsWhenOff: chat.notify = "off" asks the terminal for
// nothing and never rings.
func TestNoFocusReportsWhenOff(t *testing.T) {
	b := newTestConv(t, reply(writeA), reply("Written."))
	h := newHarness(t, b, Options{Notify: ringOff})
	if h.m.View().ReportFocus {
		t.Error("focus reports asked for with the bell off")
	}
	h.deliver(tea.BlurMsg{})
	h.say("write a.txt")
	h.until("the approval", func() bool { return h.m.ask != nil })
	h.typeText("y")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Written.") })
	if len(h.raw) != 0 {
		t.Errorf("rang with the bell off: %q", h.raw)
	}
}

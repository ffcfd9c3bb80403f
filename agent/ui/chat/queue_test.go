package chat

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// TestQueuedWhileStreaming: a message sent while a reply streams is
// queued (shown above the editor), Ctrl+X takes the last one back into
// the editor, and the rest is sent when the turn ends, in order.
func TestQueuedWhileStreaming(t *testing.T) {
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	b := newTestConv(t, llmtest.Reply{Text: "Thinking about it", Block: true}, reply("Second answer."))
	h := newHarness(t, b, Options{Conversation: fixedFolder{b}, Now: func() time.Time { return at }})
	h.say("first")
	h.until("the stream", func() bool { return strings.Contains(h.view(), "Thinking about it") })
	h.say("second")
	h.say("third, to take back")
	golden(t, "view_queued_80", h.view())
	if h.m.hint != "" {
		t.Errorf("status hint %q", h.m.hint)
	}
	h.press('x', tea.ModCtrl)
	if v := h.m.input.Value(); v != "third, to take back" {
		t.Errorf("ctrl+x put %q in the editor", v)
	}
	h.m.input.Reset()
	if strings.Contains(h.view(), "third") {
		t.Errorf("the message taken back is still queued:\n%s", h.view())
	}
	h.press(tea.KeyEscape) // the turn ends (stopped): the queue goes
	h.until("the queued message's answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Second answer.") })
	reqs := b.script.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	msgs := reqs[1].Messages
	if last := msgs[len(msgs)-1].Text; !strings.Contains(last, "second") || strings.Contains(last, "third") {
		t.Errorf("the second request's user turn is %q", last)
	}
	if strings.Contains(h.view(), "queued") {
		t.Errorf("still shown as queued:\n%s", h.view())
	}
}

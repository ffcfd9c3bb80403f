package chat

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestPlanModeIsToldToTheModel: Shift+Tab into plan mode adds a line
// saying so to the next message the model gets, Shift+Tab out of it one
// saying it is off, and a message with no change of mode has neither.
func TestPlanModeIsToldToTheModel(t *testing.T) {
	b := newTestConv(t, reply("Planned."), reply("Doing it."), reply("Done."))
	h := newHarness(t, b, Options{})
	lastUser := func(i int) string {
		msgs := b.script.Requests()[i].Messages
		return msgs[len(msgs)-1].Text
	}
	h.press(tea.KeyTab, tea.ModShift) // auto
	h.press(tea.KeyTab, tea.ModShift) // plan
	if h.m.info.Policy != PolicyPlan {
		t.Fatalf("policy %q after two shift+tab", h.m.info.Policy)
	}
	h.say("plan the change")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Planned.") })
	if u := lastUser(0); !strings.Contains(u, "Plan mode is on") || !strings.HasPrefix(u, "plan the change") {
		t.Errorf("the turn after plan mode went on: %q", u)
	}
	h.press(tea.KeyTab, tea.ModShift) // ask
	h.say("go ahead")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Doing it.") })
	if u := lastUser(1); !strings.Contains(u, "Plan mode is off") {
		t.Errorf("the turn after plan mode went off: %q", u)
	}
	h.say("thanks")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Done.") })
	if u := lastUser(2); strings.Contains(u, "Plan mode") {
		t.Errorf("a turn with no change of mode: %q", u)
	}
	if strings.Contains(h.printed(), "Plan mode") {
		t.Errorf("the note to the model was shown to the person:\n%s", h.printed())
	}
}

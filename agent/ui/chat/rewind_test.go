package chat

import (
	"strings"
	"testing"
)

// TestRewindListAfterARewind: after a rewind the turns left and the new
// ones are listed newest first and numbered in order (1, 2, …), not by
// the run numbers that keep counting.
func TestRewindListAfterARewind(t *testing.T) {
	b := newTestConv(t, reply("one."), reply("two."), reply("three."), reply("four."))
	h := newHarness(t, b, Options{})
	for _, s := range []string{"first", "second", "third"} {
		h.say(s)
		want := map[string]string{"first": "one.", "second": "two.", "third": "three."}[s]
		h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), want) })
	}
	h.say("/rewind")
	h.until("the picker", func() bool { return h.m.picker != nil })
	h.press('j') // turn 2
	h.press('\r')
	h.until("the rewind", func() bool { return h.idle() && strings.Contains(h.printed(), "Rewound to before turn 2") })
	h.m.input.Reset()
	h.say("fourth")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "four.") })
	h.say("/rewind")
	h.until("the picker", func() bool { return h.m.picker != nil })
	v := h.view()
	i, j := strings.Index(v, "turn 2  fourth"), strings.Index(v, "turn 1  first")
	if i < 0 || j < 0 || i > j || strings.Contains(v, "turn 4") {
		t.Errorf("the turns after a rewind are not listed in order:\n%s", v)
	}
}

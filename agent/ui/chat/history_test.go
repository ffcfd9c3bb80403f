package chat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHistoryRefusesALink: a shipped .agent/history linked to a file
// outside the project (a stand-in for ~/.bashrc) is neither read nor
// written; the chat says so once, and a regular history file is kept.
func TestHistoryRefusesALink(t *testing.T) {
	b := newTestConv(t, reply("One."), reply("Two."))
	outside := filepath.Join(t.TempDir(), "bashrc")
	const rc = "# my bashrc\n\"an old entry\"\n"
	if err := os.WriteFile(outside, []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(b.root, ".agent"), 0o700)
	if err := os.Symlink(outside, filepath.Join(b.root, ".agent", "history")); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, b, Options{})
	h.say("why does $(touch x) fail?")
	h.until("the first answer", func() bool { return h.idle() && strings.Contains(h.printed(), "One.") })
	h.say("and now?")
	h.until("the second answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Two.") })
	h.settle()
	if got, _ := os.ReadFile(outside); string(got) != rc {
		t.Errorf("the chat wrote through .agent/history's link: %q", got)
	}
	if n := strings.Count(h.printed(), ".agent/history is a symlink"); n != 1 {
		t.Errorf("the refusal was said %d times, want once:\n%s", n, h.printed())
	}
	for _, e := range h.m.history.entries {
		if e == "an old entry" {
			t.Error("history was read through the link")
		}
	}

	// A regular file is the history, as before.
	b2 := newTestConv(t, reply("Three."))
	h2 := newHarness(t, b2, Options{})
	h2.say("keep me")
	h2.until("the answer", func() bool { return h2.idle() && strings.Contains(h2.printed(), "Three.") })
	h2.settle()
	got, err := os.ReadFile(filepath.Join(b2.root, ".agent", "history"))
	if err != nil || string(got) != "\"keep me\"\n" {
		t.Errorf("history file = %q, %v", got, err)
	}
	if strings.Contains(h2.printed(), ".agent/history") {
		t.Errorf("a regular history was refused:\n%s", h2.printed())
	}
}

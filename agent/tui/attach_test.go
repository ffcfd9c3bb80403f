package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestAttachRefusalsKeepTheMessage: an @path that is a hard link (here
// to .env) or names no project file (/etc/passwd) is not attached, the
// chat says why in one line, nothing reaches the model and the message
// is back in the editor; @alice (not a path) is prose.
func TestAttachRefusalsKeepTheMessage(t *testing.T) {
	b := newTestConv(t, reply("Read it."))
	b.write(t, ".env", "API=SECRET-DOTENV\n")
	if err := os.Link(filepath.Join(b.root, ".env"), filepath.Join(b.root, "hard.txt")); err != nil {
		t.Fatal(err)
	}
	b.write(t, "notes.md", "plain notes\n")
	h := newHarness(t, b, Options{})
	h.typeText("@")
	h.until("the file list", func() bool { return h.m.files != nil })
	h.m.input.Reset()

	for _, c := range []struct{ msg, want string }{
		{"look at @hard.txt please", "not sent: @hard.txt: it is a hard link"},
		{"look at @/etc/passwd please", "not sent: @/etc/passwd is not a file of this project"},
	} {
		h.m.input.SetValue(c.msg)
		h.m.comp = completion{}
		h.press(tea.KeyEnter)
		h.until("the refusal of "+c.msg, func() bool { return strings.Contains(h.printed(), c.want) })
		h.settle()
		if got := h.m.input.Value(); got != c.msg {
			t.Errorf("editor after the refusal = %q, want the message kept", got)
		}
		for _, l := range strings.Split(h.printed(), "\n") {
			if strings.Contains(l, c.want) && strings.Contains(l, "your message is back") {
				goto found
			}
		}
		t.Errorf("refusal of %q is not one line:\n%s", c.msg, h.printed())
	found:
		h.m.input.Reset()
	}
	if n := len(b.script.Requests()); n != 0 {
		t.Fatalf("%d requests reached the model after refused attachments", n)
	}

	h.m.input.SetValue("ask @alice about @notes.md")
	h.m.comp = completion{}
	h.press(tea.KeyEnter)
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Read it.") })
	last := b.script.Requests()[0].Messages
	text := last[len(last)-1].Text
	if !strings.Contains(text, "plain notes") || strings.Contains(text, "SECRET") {
		t.Errorf("request: %q", text)
	}
}

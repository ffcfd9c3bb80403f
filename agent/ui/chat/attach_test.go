package chat

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/agentcli/agent/agent/llm"
)

func lastUserText(b *testConv, i int) string {
	msgs := b.script.Requests()[i].Messages
	return msgs[len(msgs)-1].Text
}

// TestAttachOutsideTheProject: the person may attach a file outside the
// project (their choice); it is sent with the message and listed under
// it, the @path drawn as a chip.
func TestAttachOutsideTheProject(t *testing.T) {
	b := newTestConv(t, reply("Seen."))
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "notes.txt"), []byte("outside words\nline two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b.write(t, "a.txt", "inside words\n")
	h := newHarness(t, b, Options{})
	at := "@" + filepath.Join(out, "notes.txt")
	h.say("compare " + at + " with @a.txt")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Seen.") })
	u := lastUserText(b, 0)
	for _, want := range []string{"outside words\nline two", "inside words", "compare " + at} {
		if !strings.Contains(u, want) {
			t.Errorf("the model's message lacks %q:\n%s", want, u)
		}
	}
	p := h.printed()
	if !strings.Contains(p, "⎘ a.txt · 1 line") || !strings.Contains(p, "notes.txt · 2 lines · outside the project") {
		t.Errorf("the attachments are not listed under the message:\n%s", p)
	}
	if raw := h.m.Printed(); !strings.Contains(raw, h.m.st.chip.Render("@a.txt")) {
		t.Errorf("@a.txt is not drawn as a chip: %q", raw)
	}
}

// TestAttachRefusedKeepsTheMessage: a secret file and an unknown path are
// refused in one line before anything is sent, and the message stays in
// the editor.
func TestAttachRefusedKeepsTheMessage(t *testing.T) {
	b := newTestConv(t, reply("Never."))
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, ".env"), []byte("KEY=secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A hard link in the project may be another name of a secret file.
	b.write(t, ".env", "API=SECRET-DOTENV\n")
	if err := os.Link(filepath.Join(b.root, ".env"), filepath.Join(b.root, "hard.txt")); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, b, Options{})
	for _, tc := range []struct{ msg, want string }{
		{"use @" + filepath.Join(out, ".env") + " please", "holds secrets"},
		{"read @nope/missing.txt", "@nope/missing.txt: no such file"},
		{"look at @hard.txt please", "hard link"},
	} {
		h.say(tc.msg)
		h.until("the refusal", func() bool { return strings.Contains(h.printed(), tc.want) })
		h.settle()
		if v := h.m.input.Value(); v != tc.msg {
			t.Errorf("the editor holds %q after the refusal, want the message kept", v)
		}
		// The refusal (wrapped at word boundaries) says the message was not sent.
		printed := strings.Join(strings.Fields(h.printed()), " ")
		if i := strings.Index(printed, tc.want); i < 0 || !strings.Contains(printed[i:], "not sent") {
			t.Errorf("the refusal does not say the message was not sent:\n%s", h.printed())
		}
		h.m.input.Reset()
	}
	if n := len(b.script.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
	if strings.Contains(h.printed(), "secret\n") || strings.Contains(h.printed(), "KEY=") || strings.Contains(h.printed(), "SECRET-DOTENV") {
		t.Errorf("the secret was shown")
	}
}

// TestAttachImage: @shot.png attaches the picture for a model that sees
// images; a dragged-in path (quoted, with a space) becomes an @path.
func TestAttachImage(t *testing.T) {
	b := newTestConv(t, reply("A red square."), reply("Another."))
	b.script.Images = &llm.ImageSpec{Accepts: true}
	var buf bytes.Buffer
	png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 8, 8)))
	b.write(t, "shot.png", buf.String())
	out := t.TempDir()
	dropped := filepath.Join(out, "my shot.png")
	if err := os.WriteFile(dropped, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, b, Options{})
	h.say("what is in @shot.png?")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "A red square.") })
	msgs := b.script.Requests()[0].Messages
	if imgs := msgs[len(msgs)-1].Images; len(imgs) != 1 {
		t.Fatalf("%d images in the message, want 1", len(imgs))
	}
	h.deliver(tea.PasteMsg{Content: "'" + dropped + "'"})
	if v := h.m.input.Value(); v != `@"`+dropped+`" ` {
		t.Fatalf("the dropped path became %q", v)
	}
	h.typeText("and this?")
	h.press(tea.KeyEnter)
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Another.") })
	msgs = b.script.Requests()[1].Messages
	if imgs := msgs[len(msgs)-1].Images; len(imgs) != 1 {
		t.Errorf("%d images with the dropped path, want 1", len(imgs))
	}
	if !strings.Contains(h.printed(), "⎘ my shot.png · PNG image") {
		t.Errorf("the dropped image is not listed:\n%s", h.printed())
	}
}

// TestFlaggedPathSentAsTextOnSecondEnter: an @path that names no file is
// flagged and the message kept; Enter again sends it as written, with
// nothing attached ("install @types/node").
func TestFlaggedPathSentAsTextOnSecondEnter(t *testing.T) {
	b := newTestConv(t, reply("Installed."))
	h := newHarness(t, b, Options{})
	h.say("install @types/node")
	h.until("the flag", func() bool { return strings.Contains(h.printed(), "@types/node: no such file") })
	h.settle()
	if n := len(b.script.Requests()); n != 0 {
		t.Fatalf("%d requests after the flag", n)
	}
	h.press(tea.KeyEnter)
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Installed.") })
	if u := lastUserText(b, 0); u != "install @types/node" {
		t.Errorf("the model got %q", u)
	}
	if v := h.m.input.Value(); v != "" {
		t.Errorf("the editor still holds %q", v)
	}
}

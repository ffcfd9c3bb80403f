package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// The chat keeps to each conversation what belongs to it: what the model
// read and what the user allowed always. These run the real binary in a
// real terminal against a fake provider.

const (
	tmuxRead    = `<tool_call name="read_file"><file_path>a.txt</file_path></tool_call>`
	tmuxRewrite = `<tool_call name="write_file"><operation_type>rewrite</operation_type><file_path>a.txt</file_path><content>rewritten
</content></tool_call>`
)

func tmuxCreate(name string) string {
	return `<tool_call name="write_file"><operation_type>create</operation_type><file_path>` + name + `</file_path><content>x
</content></tool_call>`
}

// TestChatTmuxClearForgetsReads: a.txt read, then /clear: the new
// conversation's model never read it, so its rewrite is refused as stale
// and the file is left alone.
func TestChatTmuxClearForgetsReads(t *testing.T) {
	c := startTmuxChat(t, 100, 30,
		llmtest.Say(tmuxRead), llmtest.Say("Read it."),
		llmtest.Say(tmuxRewrite), llmtest.Say("Could not."))
	c.write("a.txt", "old text\n")
	c.typeLine("read a.txt")
	c.waitFor("the read", "Read it.")
	c.idle()
	c.typeLine("/clear")
	c.waitFor("the new conversation", "New conversation.")
	c.typeLine("rewrite a.txt")
	s := c.waitFor("the answer", "Could not.")
	if !strings.Contains(s, "FILE_STALE") {
		t.Errorf("the rewrite after /clear was not refused as stale:\n%s", s)
	}
	if got := c.read("a.txt"); got != "old text\n" {
		t.Errorf("a.txt = %q after /clear and a rewrite", got)
	}
}

// TestChatTmuxResumeForgetsReads: /resume of a session that never read
// a.txt brings that session's reads, not this one's: the rewrite is
// refused as stale.
func TestChatTmuxResumeForgetsReads(t *testing.T) {
	c := startTmuxChat(t, 100, 30,
		llmtest.Say("Hello."),
		llmtest.Say(tmuxRead), llmtest.Say("Read it."),
		llmtest.Say(tmuxRewrite), llmtest.Say("Could not."))
	c.write("a.txt", "old text\n")
	c.typeLine("hello") // the session that never reads a.txt
	c.waitFor("the answer", "Hello.")
	c.idle()
	c.typeLine("/clear")
	c.waitFor("the new conversation", "New conversation.")
	c.typeLine("read a.txt")
	c.waitFor("the read", "Read it.")
	c.idle()
	c.typeLine("/resume")
	c.waitFor("the picker", "/resume  ↑↓ choose")
	c.keys("Enter")
	c.waitFor("the resumed session", "Resumed session")
	c.idle()
	c.typeLine("rewrite a.txt")
	s := c.waitFor("the answer", "Could not.")
	if !strings.Contains(s, "FILE_STALE") {
		t.Errorf("the rewrite after /resume was not refused as stale:\n%s", s)
	}
	if got := c.read("a.txt"); got != "old text\n" {
		t.Errorf("a.txt = %q after /resume and a rewrite", got)
	}
}

// TestChatTmuxAlwaysBelongsToItsTurn: "always" given in a turn spares
// the next question, but not after /rewind to before that turn, nor
// after /clear.
func TestChatTmuxAlwaysBelongsToItsTurn(t *testing.T) {
	c := startTmuxChat(t, 100, 30,
		llmtest.Say("Hello."),
		llmtest.Say(tmuxCreate("b.txt")), llmtest.Say("Made b."),
		llmtest.Say(tmuxCreate("c.txt")), llmtest.Say("Made c."),
		llmtest.Say(tmuxCreate("d.txt")), llmtest.Say("Made d."),
		llmtest.Say(tmuxCreate("e.txt")), llmtest.Say("Made e."),
		llmtest.Say(tmuxCreate("f.txt")), llmtest.Say("Made f."))
	c.typeLine("hello")
	c.waitFor("the answer", "Hello.")
	c.idle()
	c.typeLine("make b")
	c.waitFor("the question", "Allow write_file?")
	c.keys("a")
	c.waitFor("the answer", "Made b.")
	c.idle()
	// Asked about nothing: a question would wait for a key.
	c.typeLine("make c")
	c.waitFor("the answer", "Made c.")
	c.idle()

	c.typeLine("/rewind")
	c.waitFor("the picker", "/rewind  ↑↓ choose")
	c.keys("Down") // turn 2, "make b", the one that said always
	c.keys("Enter")
	c.waitFor("the rewind", "Rewound to before turn 2")
	c.idle()
	if c.exists("b.txt") || c.exists("c.txt") {
		t.Fatalf("the rewind left b.txt or c.txt")
	}
	c.keys("C-c") // the rewound message is back in the input box
	c.typeLine("make d")
	c.waitFor("the question after /rewind", "Allow write_file?")
	c.keys("a")
	c.waitFor("the answer", "Made d.")
	c.idle()
	c.typeLine("make e") // always, given again
	c.waitFor("the answer", "Made e.")
	c.idle()

	c.typeLine("/clear")
	c.waitFor("the new conversation", "New conversation.")
	c.typeLine("make f")
	c.waitFor("the question after /clear", "Allow write_file?")
	c.keys("y")
	c.waitFor("the answer", "Made f.")
	for _, name := range []string{"d.txt", "e.txt", "f.txt"} {
		if !c.exists(name) {
			t.Errorf("%s was not written", name)
		}
	}
}

func (c *tmuxChat) exists(name string) bool {
	_, err := os.Stat(filepath.Join(c.proj, name))
	return err == nil
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// TestChatTmuxTallOutput: /tools at 100×12 is taller than the window. It
// goes into the scrollback whole, once, and the editor and status line
// stay at the bottom, with no copy of them left in the scrollback, also
// after resizes.
func TestChatTmuxTallOutput(t *testing.T) {
	c := startTmuxChat(t, 100, 12)
	// Typed as a person types: the completion list is drawn for /tools
	// before Enter, and Enter closes it as the list prints (a print that
	// lands before the renderer's next tick, above the taller frame).
	c.tmux("send-keys", "-t", "0", "-l", "/tools")
	c.waitFor("the completion of /tools", "› /tools")
	c.keys("Enter")
	c.waitFor("the end of the list", "note_delete")
	c.tmux("send-keys", "-t", "0", "-l", "abc")
	s := c.waitFor("the typed text", "› abc")
	if !strings.Contains(s, "ask · shift+tab") {
		t.Errorf("no status line under the input:\n%s", s)
	}
	check := func(when string) {
		t.Helper()
		h := c.history()
		for _, want := range []string{"• read_file", "• write_file", "• note_delete"} {
			if n := strings.Count(h, want); n != 1 {
				t.Errorf("%s: %q %d times in the scrollback, want once:\n%s", when, want, n, h)
			}
		}
		if n := strings.Count(h, "shift+tab"); n != 1 {
			t.Errorf("%s: %d status lines in the scrollback and screen, want 1:\n%s", when, n, h)
		}
		if n := strings.Count(h, "/tools  list"); n != 0 {
			t.Errorf("%s: a stale completion line left behind:\n%s", when, h)
		}
	}
	check("after /tools")
	c.tmux("resize-window", "-t", "0", "-x", "80", "-y", "12")
	c.waitFor("the redraw", "~/proj               ask · shift+tab")
	c.tmux("resize-window", "-t", "0", "-x", "120", "-y", "16")
	c.idle()
	check("after resizes")
}

// TestChatTmuxPasteCR pastes 300 lines joined by CR, as terminals send
// them (tmux paste-buffer in bracketed-paste mode): the editor shows one
// placeholder and the model gets the 300 lines.
func TestChatTmuxPasteCR(t *testing.T) {
	c := startTmuxChat(t, 100, 20, llmtest.Say("Got it."))
	var lines []string
	for i := 1; i <= 300; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	c.tmux("set-buffer", "-b", "p", strings.Join(lines, "\r")+"\r")
	c.tmux("paste-buffer", "-p", "-b", "p", "-t", "0")
	c.waitFor("the placeholder", "[pasted #1: 300 lines]")
	c.keys("Enter")
	c.waitFor("the answer", "Got it.")
	reqs := c.srv.Requests()
	last := reqs[len(reqs)-1].LastUser()
	for _, want := range []string{"line 1\nline 2\n", "line 299\nline 300"} {
		if !strings.Contains(last, want) {
			t.Fatalf("the model got %q, want %q in it", last[:min(len(last), 200)], want)
		}
	}
	if n := strings.Count(last, "\nline "); n != 299 {
		t.Errorf("the model got %d line breaks before a line, want 299", n)
	}
}

// TestChatTmuxQueuedMidReply: a message sent while a reply streams is
// shown as queued and sent when the reply ends, with no hint left on the
// status line.
func TestChatTmuxQueuedMidReply(t *testing.T) {
	slow := llmtest.Say("Streaming slowly", " and more", " and done.").WithChunkDelay(700 * time.Millisecond)
	c := startTmuxChat(t, 80, 24, slow, llmtest.Say("Queued answer."))
	c.typeLine("start")
	c.waitFor("the stream", "Streaming slowly")
	c.typeLine("and then this")
	c.waitFor("the queued line", "queued: and then this")
	c.waitFor("the queued message's answer", "Queued answer.")
	s := c.idle() // the frame after the answer's print
	if strings.Contains(s, "still working") || strings.Contains(s, "queued:") {
		t.Errorf("a hint or the queue stayed:\n%s", s)
	}
	reqs := c.srv.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].LastUser(), "and then this") {
		t.Errorf("%d requests; the last user turn: %q", len(reqs), reqs[len(reqs)-1].LastUser())
	}
	if h := c.history(); strings.Index(h, "and done.") > strings.Index(h, "› and then this") {
		t.Errorf("the queued message was shown sent before the reply ended:\n%s", h)
	}
}

// TestChatTmuxContinueShowsTheConversation: `agent --continue` shows the
// turns it continues, compactly, and /resume lists sessions with their
// time, first prompt and number of turns.
func TestChatTmuxContinueShowsTheConversation(t *testing.T) {
	c := startTmux(t, tmuxOptions{width: 80, height: 30,
		answers: []llmtest.Answer{llmtest.Say("Hello there."), llmtest.Say(tmuxRead),
			llmtest.Say("It says old text.\n\nA second paragraph.\n\n- one\n- two\n- three")},
		env: []string{"NO_COLOR=1"},
		command: func(bin string) []string {
			return []string{"sh", "-c", bin + "; clear; " + bin + " --continue; sleep 60"}
		}})
	c.write("a.txt", "old text\n")
	c.waitPrompt()
	c.typeLine("hello")
	c.waitFor("the answer", "Hello there.")
	c.idle()
	c.typeLine("read a.txt and tell me")
	c.waitFor("the answer", "A second paragraph.")
	c.idle()
	c.keys("C-c")
	c.keys("C-c")
	c.waitFor("the recap", "continuing session")
	s := c.waitPrompt()
	c.golden("resumed", s)
	for _, want := range []string{"› hello", "Hello there.", "› read a.txt and tell me", "(1 tool call)", "It says old text."} {
		if !strings.Contains(s, want) {
			t.Errorf("the recap lacks %q:\n%s", want, s)
		}
	}
	c.typeLine("/clear")
	c.waitFor("the new conversation", "New conversation.")
	c.typeLine("/resume")
	s = c.waitFor("the picker", "/resume  ↑↓ choose")
	if !regexp.MustCompile(`▸ today \d\d:\d\d · hello · 2 turns`).MatchString(s) {
		t.Errorf("the /resume list does not show time, first prompt and turns:\n%s", s)
	}
	c.keys("Enter")
	c.waitFor("the recap after /resume", "› read a.txt and tell me")
}

// TestChatTmuxHistoryCursorAtEnd: ↑ recalls the last message with the
// cursor after its text, so typing goes on at the end.
func TestChatTmuxHistoryCursorAtEnd(t *testing.T) {
	c := startTmuxChat(t, 80, 20, llmtest.Say("One."))
	c.typeLine("first message")
	c.waitFor("the answer", "One.")
	c.idle()
	c.keys("Up")
	c.waitFor("the recalled message", "› first message")
	c.tmux("send-keys", "-t", "0", "-l", " and more")
	c.waitFor("the text typed at the end", "› first message and more")
}

// TestChatTmuxAttachRefusals: a secret file outside the project and an
// unknown path are refused in one line before sending, the message left
// in the editor; a file outside the project is the person's choice.
func TestChatTmuxAttachRefusals(t *testing.T) {
	c := startTmuxChat(t, 100, 24, llmtest.Say("Read both."))
	home := filepath.Dir(c.proj)
	os.WriteFile(filepath.Join(home, ".env"), []byte("KEY=x\n"), 0o600)
	os.WriteFile(filepath.Join(home, "todo.txt"), []byte("buy milk\n"), 0o644)
	c.typeLine("use @~/.env")
	c.waitFor("the refusal", "holds secrets")
	c.waitFor("the message kept in the editor", "› use @~/.env")
	c.keys("C-c")
	c.typeLine("read @nope.txt")
	c.waitFor("the flag", "@nope.txt: no such file")
	c.waitFor("the message kept in the editor", "› read @nope.txt")
	c.keys("C-c")
	c.typeLine("read @~/todo.txt")
	c.waitFor("the answer", "Read both.")
	reqs := c.srv.Requests()
	if len(reqs) != 1 || !strings.Contains(reqs[0].LastUser(), "buy milk") {
		t.Errorf("%d requests; the file outside the project did not reach the model", len(reqs))
	}
}

// TestChatTmuxCommandFrontMatter: a command file added while the chat
// runs is offered without a restart, with its front matter's description
// and argument hint; the front matter is not sent to the model.
func TestChatTmuxCommandFrontMatter(t *testing.T) {
	c := startTmuxChat(t, 100, 24, llmtest.Say("Reviewed."))
	if err := os.MkdirAll(filepath.Join(c.proj, ".agent", "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	c.write(".agent/commands/review.md", "---\ndescription: Review a file for bugs\nargument-hint: \"[file]\"\n---\n\nReview $ARGUMENTS carefully.\n")
	c.tmux("send-keys", "-t", "0", "-l", "/rev")
	c.waitFor("the completion", "[file]  Review a file for bugs")
	c.tmux("send-keys", "-t", "0", "-l", "iew a.txt")
	c.keys("Enter")
	c.waitFor("the answer", "Reviewed.")
	reqs := c.srv.Requests()
	last := reqs[len(reqs)-1].LastUser()
	if !strings.Contains(last, "Review a.txt carefully.") || strings.Contains(last, "description") || strings.Contains(last, "---") {
		t.Errorf("the model got %q", last)
	}
}

// TestChatTmuxJobsAndSkills: /skills lists the project's skills and
// /jobs its background jobs, as tables, in the chat.
func TestChatTmuxJobsAndSkills(t *testing.T) {
	needSandbox(t)
	bg := `<tool_call name="run_command"><command>echo started-job; sleep 5</command><background>true</background></tool_call>`
	c := startTmux(t, tmuxOptions{width: 100, height: 30,
		answers: []llmtest.Answer{llmtest.Say(bg), llmtest.Say("Started.")},
		env:     []string{"NO_COLOR=1"},
		command: func(bin string) []string {
			return []string{"sh", "-c", "mkdir -p .agents/skills/changelog && printf -- '---\\nname: changelog\\ndescription: Writes CHANGELOG.md entries. Use when shipping.\\n---\\nBody.\\n' > .agents/skills/changelog/SKILL.md && exec " + bin + " --approval auto"}
		}})
	c.waitPrompt()
	c.typeLine("/jobs")
	c.waitFor("no jobs", "No background jobs yet")
	c.typeLine("/skills")
	c.waitFor("the skills table", "│ changelog │ Writes CHANGELOG.md entries.")
	c.typeLine("start the job")
	c.waitFor("the answer", "Started.")
	c.idle()
	c.typeLine("/jobs")
	s := c.waitFor("the jobs table", "│ id │ state")
	if !regexp.MustCompile(`│ +1 │ is running.*│ echo started-job; sleep 5`).MatchString(s) {
		t.Errorf("/jobs does not list the running job:\n%s", s)
	}
}

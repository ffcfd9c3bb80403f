package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// spinnerRE matches the spinner's frames, which a screen read while a
// turn runs may show at any one.
var spinnerRE = regexp.MustCompile("[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]")

// lineIndex is the number of the screen's first line holding text, -1
// when none does.
func lineIndex(screen, text string) int {
	for i, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, text) {
			return i
		}
	}
	return -1
}

// TestChatTmuxPlanPinned: in a real terminal the model's plan shows
// above the input while the turn runs (the reply after the plan is held
// on the fake server until the screen is read), and goes into the
// scrollback under the answer when the turn ends.
func TestChatTmuxPlanPinned(t *testing.T) {
	hold := make(chan struct{})
	c := startTmuxChat(t, 80, 24,
		llmtest.Say("Planning.\n"+todoCall("1", "- [x] Read the code\n- [>] Write the tests\n- [ ] Run them\n")),
		llmtest.Say("Tests written.").WithHold(hold),
	)
	c.typeLine("write the tests")
	s := c.waitFor("the plan", "▶ Write the tests")
	head, step, input := lineIndex(s, "plan · 1 of 3 done"), lineIndex(s, "▶ Write the tests"), lineIndex(s, "Ask, or /help")
	if head < 0 || !(head < step && step < input) || lineIndex(s, "○ Run them") != step+1 {
		t.Errorf("the plan is not above the input:\n%s", s)
	}
	c.golden("plan_pinned", spinnerRE.ReplaceAllString(s, "⠋"))
	close(hold)
	c.waitFor("the answer", "Tests written.")
	s = c.idle()
	answer, done := lineIndex(s, "Tests written."), lineIndex(s, "✓ Read the code")
	if done < answer || lineIndex(s, "▶ Write the tests") < answer || lineIndex(s, "▶ Write the tests") > lineIndex(s, "Ask, or /help") {
		t.Errorf("the plan is not in the scrollback under the answer:\n%s", s)
	}
}

// TestChatTmuxQuestion: the model's question in a real terminal is a
// choice list; ↓ and Enter answer it, and the model gets the option.
func TestChatTmuxQuestion(t *testing.T) {
	c := startTmuxChat(t, 80, 24,
		llmtest.Say(`<tool_call name="ask_user" id="1"><question>Which database should the service use?</question><options>PostgreSQL
SQLite
both</options></tool_call>`),
		llmtest.Say("SQLite it is."),
	)
	c.typeLine("set up the database")
	s := c.waitFor("the question", "? Which database should the service use?")
	c.golden("question", s)
	c.keys("Down")
	c.waitFor("the cursor on SQLite", "› SQLite")
	c.keys("Enter")
	c.waitFor("the answer", "SQLite it is.")
	s = c.idle()
	if !strings.Contains(s, "? Which database should the service use? → SQLite") {
		t.Errorf("the question and its answer are not in the scrollback:\n%s", s)
	}
	if got := c.srv.Requests()[1].LastUser(); !strings.Contains(got, `the user chose "SQLite"`) {
		t.Errorf("the model got:\n%s", got)
	}
}

// TestChatTmuxBellWhenAway: with a client attached to the chat's tmux
// (script gives it a terminal) and focus events on, leaving the chat's
// window for another is reported to the chat as a lost focus; the
// approval that then waits rings the bell, which tmux flags on the
// chat's window.
func TestChatTmuxBellWhenAway(t *testing.T) {
	c := startTmuxChat(t, 80, 24,
		llmtest.Say(`<tool_call name="write_file"><operation_type>create</operation_type><file_path>b.txt</file_path><content>b
</content></tool_call>`),
		llmtest.Say("Written."),
	)
	script, err := exec.LookPath("script") // util-linux's, in every Debian
	if err != nil {
		t.Fatal("script (util-linux) is needed to attach a client to tmux")
	}
	c.tmux("set", "-g", "focus-events", "on")
	c.attach(script)
	c.tmux("new-window", "-d", "cat") // another program to look at
	c.tmux("select-window", "-t", ":1")
	c.typeLineTo(":0", "write b.txt")
	c.waitForTmux("the bell on the chat's window", "list-windows", "-F", "#{window_index}:#{window_bell_flag}", "0:1")
	if s := c.tmux("capture-pane", "-p", "-t", ":0"); !strings.Contains(s, "Allow write_file?") {
		t.Errorf("the bell rang but no approval waits:\n%s", s)
	}
	c.keysTo(":0", "y")
	c.tmux("select-window", "-t", ":0")
	c.waitFor("the answer", "Written.")
}

// attach attaches a tmux client to the chat's server in a terminal of
// its own (script's), as a person's terminal would be, until the test ends.
func (c *tmuxChat) attach(script string) {
	c.t.Helper()
	stdin, hold, err := os.Pipe() // script reads its input until the test ends
	if err != nil {
		c.t.Fatal(err)
	}
	cmd := exec.Command(script, "-q", "-c", "tmux -L "+c.socket+" attach", "/dev/null")
	cmd.Stdin, cmd.Env = stdin, append(os.Environ(), "TERM=xterm-256color")
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() {
		hold.Close()
		cmd.Process.Kill()
		cmd.Wait()
		stdin.Close()
	})
	c.waitForTmux("the client", "list-clients", "-F", "#{client_flags}", "attached")
}

// waitForTmux waits until the tmux command's output holds text.
func (c *tmuxChat) waitForTmux(what string, args ...string) {
	c.t.Helper()
	args, text := args[:len(args)-1], args[len(args)-1]
	deadline := time.Now().Add(15 * time.Second)
	for {
		out := c.tmux(args...)
		if strings.Contains(out, text) {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out waiting for %s (%q in tmux %v: %q); screen:\n%s", what, text, args, out, c.tmux("capture-pane", "-p", "-t", ":0"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// typeLineTo types text literally into window w and presses Enter.
func (c *tmuxChat) typeLineTo(w, text string) {
	c.tmux("send-keys", "-t", w, "-l", text)
	c.tmux("send-keys", "-t", w, "Enter")
}

func (c *tmuxChat) keysTo(w string, keys ...string) {
	c.tmux(append([]string{"send-keys", "-t", w}, keys...)...)
}

package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// hiddenCommand is a command whose harmful tail 300 spaces would push out
// of sight at the edge of a window.
const hiddenCommand = "pytest" + "                                                                                                                                                                                                                                                                                                            " + "; rm -f important.txt"

// bigRewrite is a 300-line file and its rewrite, every line changed, the
// one that matters at line 150: its change is far below any first screen.
func bigRewrite() (old, new string) {
	var o, n strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&o, "old line %d\n", i)
		if i == 150 {
			n.WriteString("new line 150 DANGER\n")
			continue
		}
		fmt.Fprintf(&n, "new line %d\n", i)
	}
	return o.String(), n.String()
}

// needSandbox fails under CI when bubblewrap is missing, and skips
// elsewhere: run_command refuses to run without it.
func needSandbox(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bwrap not found: install the package bubblewrap")
		}
		t.Skip("bwrap not found")
	}
}

func approvalAnswers() []llmtest.Answer {
	_, big := bigRewrite()
	return []llmtest.Answer{
		llmtest.Say(`<tool_call name="run_command"><command>` + hiddenCommand + `</command></tool_call>`),
		llmtest.Say("Not run."),
		llmtest.Say(`<tool_call name="read_file"><file_path>big.txt</file_path></tool_call>`),
		llmtest.Say(`<tool_call name="write_file"><operation_type>rewrite</operation_type><file_path>big.txt</file_path><content>` + big + `</content></tool_call>`),
		llmtest.Say("Rewritten."),
	}
}

// TestChatTmuxApprovalShowsEverything: in a real terminal, the chat's
// question shows the tail of a command hidden behind 300 spaces, and the
// change at line 150 of a 300-line rewrite can be scrolled to while the
// question waits.
func TestChatTmuxApprovalShowsEverything(t *testing.T) {
	needSandbox(t)
	c := startTmuxChat(t, 100, 30, approvalAnswers()...)
	c.write("important.txt", "keep me\n")
	old, big := bigRewrite()
	c.write("big.txt", old)

	c.typeLine("run the tests")
	s := c.waitFor("the command's question", "Allow run_command?")
	if !strings.Contains(s, "pytest␠×300; rm -f important.txt") {
		t.Fatalf("the command's tail is not on the screen:\n%s", s)
	}
	c.keys("n")
	c.waitFor("the answer", "Not run.")
	c.idle()
	if got := c.read("important.txt"); got != "keep me\n" {
		t.Fatalf("important.txt = %q after n", got)
	}

	c.typeLine("rewrite big.txt")
	s = c.waitFor("the rewrite's question", "Allow write_file?")
	if strings.Contains(s, "DANGER") || !strings.Contains(s, "more lines not shown yet") {
		t.Fatalf("want the first screen of the diff, saying how much is not shown:\n%s", s)
	}
	c.golden("approval_long_diff", s)
	seen := false
	for range 80 {
		if s = c.screen(); strings.Contains(s, "+new line 150 DANGER") {
			seen = true
			break
		}
		c.keys("NPage")
		time.Sleep(30 * time.Millisecond)
	}
	if !seen {
		t.Fatalf("paging down never showed line 150:\n%s", s)
	}
	if !strings.Contains(s, "Allow write_file?") || !strings.Contains(s, "y yes") {
		t.Errorf("the title or the keys scrolled away with the diff:\n%s", s)
	}
	c.keys("y")
	c.waitFor("the answer", "Rewritten.")
	if got := c.read("big.txt"); got != big {
		t.Errorf("big.txt not rewritten after y")
	}
}

// TestRunTmuxApprovalShowsEverything: the same through `agent run`'s
// terminal question, where d prints the whole diff.
func TestRunTmuxApprovalShowsEverything(t *testing.T) {
	needSandbox(t)
	// The files are written once the pane is up: the run waits for them.
	c := startTmuxRun(t, 100, 40, `until [ -e important.txt ]; do sleep 0.05; done; agent run "run the tests"`, approvalAnswers()[:2]...)
	c.write("important.txt", "keep me\n")
	s := c.waitFor("the command's question", "allow run_command")
	if !strings.Contains(s, "command: pytest␠×300; rm -f important.txt") {
		t.Fatalf("the command's tail is not on the screen:\n%s", s)
	}
	c.typeLine("n")
	c.waitFor("the end of the run", "[exit ")
	if got := c.read("important.txt"); got != "keep me\n" {
		t.Fatalf("important.txt = %q after n", got)
	}

	old, big := bigRewrite()
	answers := approvalAnswers()[2:]
	c = startTmuxRun(t, 100, 40, `until [ -e big.txt ]; do sleep 0.05; done; agent run "rewrite big.txt"`, answers...)
	c.write("big.txt", old)
	s = c.waitFor("the rewrite's question", "allow write_file")
	if strings.Contains(s, "DANGER") || !strings.Contains(s, "more lines (answer d to see them all)") {
		t.Fatalf("want the diff's start, saying how much is not shown:\n%s", s)
	}
	c.typeLine("d")
	deadline := time.Now().Add(15 * time.Second)
	for strings.Count(c.history(), "d = whole diff)") < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the question was not asked again after d:\n%s", c.history())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if h := c.history(); !strings.Contains(h, "+new line 150 DANGER") {
		t.Fatalf("d did not show line 150:\n%s", h)
	}
	c.typeLine("y")
	c.waitFor("the end of the run", "[exit 0]")
	if got := c.read("big.txt"); got != big {
		t.Errorf("big.txt not rewritten after y")
	}
}

// history is the pane with all of its scrollback.
func (c *tmuxChat) history() string {
	c.t.Helper()
	return c.tmux("capture-pane", "-p", "-S", "-")
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// startTmuxRun runs the shell command line in the project folder, in a
// tmux pane of its own tmux server, with the agent binary on PATH and a
// fake provider on 127.0.0.1. The pane stays open after the command
// ends, showing "[exit N]". Under CI a missing tmux fails the test.
func startTmuxRun(t *testing.T, width, height int, line string, answers ...llmtest.Answer) *tmuxChat {
	t.Helper()
	script := line + "; echo \"[exit $?]\"; sleep 600"
	return startTmux(t, tmuxOptions{width: width, height: height, answers: answers,
		env:     []string{"NO_COLOR=1"},
		command: func(string) []string { return []string{"sh", "-c", script} }})
}

func tmuxWriteOf(name, content string) llmtest.Answer {
	return llmtest.Say(fmt.Sprintf(`<tool_call name="write_file"><operation_type>create</operation_type><file_path>%s</file_path><content>%s
</content></tool_call>`, name, content))
}

// TestRunTmuxApprovalWithStderrInALog is `agent run` in a real terminal
// with stderr sent to a file: the preview and the question are on the
// terminal (not in the log), a typo is asked again, "n: reason" refuses
// and the reason reaches the model, and "y" writes.
func TestRunTmuxApprovalWithStderrInALog(t *testing.T) {
	c := startTmuxRun(t, 100, 40, `agent run "add the two files" 2>log`,
		tmuxWriteOf("a.txt", "from the model"),
		tmuxWriteOf("b.txt", "second try"),
		llmtest.Say("Wrote b.txt only."),
	)
	c.waitFor("the first question", "allow write_file")
	c.typeLine("yes please")
	c.waitFor("the question asked again", "please answer y, n")
	c.typeLine("n: use the helper")
	c.waitFor("the second preview", "+second try")
	// The whole second question: asked twice about a.txt, once about b.txt.
	s := c.waitForCount("the second question", "d = whole diff)", 3)
	c.golden("run_approval", s)
	c.typeLine("y")
	s = c.waitFor("the end of the run", "[exit 0]")
	if !strings.Contains(s, "Wrote b.txt only.") {
		t.Errorf("the answer is not on the terminal:\n%s", s)
	}

	if _, err := os.Stat(filepath.Join(c.proj, "a.txt")); err == nil {
		t.Errorf("a.txt was written although refused")
	}
	if got := c.read("b.txt"); got != "second try\n" {
		t.Errorf("b.txt = %q after y", got)
	}
	reqs := c.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if last := reqs[1].LastUser(); !strings.Contains(last, "use the helper") || !strings.Contains(last, "TOOL_POLICY_DENIED") {
		t.Errorf("the refusal and its reason did not reach the model:\n%s", last)
	}
	log := c.read("log")
	if strings.Contains(log, "allow write_file") || strings.Contains(log, "+from the model") {
		t.Errorf("the question or preview went to the log:\n%s", log)
	}
	if !strings.Contains(log, "→ write_file") || !strings.Contains(log, "TOOL_POLICY_DENIED") {
		t.Errorf("the log lacks the tool activity:\n%s", log)
	}
}

// waitForCount waits until text is on the screen n times.
func (c *tmuxChat) waitForCount(what, text string, n int) string {
	c.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := c.screen()
		if strings.Count(s, text) >= n {
			return s
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out waiting for %s (%q ×%d); screen:\n%s", what, text, n, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

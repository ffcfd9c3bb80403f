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

// TestRunSpinnerTmux runs `agent run` in a real terminal (a tmux pane)
// against a slow fake Gemini server on 127.0.0.1: while the model is
// waited on a spinner counts the seconds on the screen, and once the
// answer is there nothing of it is left. With stderr redirected to a file
// nothing is drawn: the file has no escape codes. Under CI a missing tmux
// fails the test; elsewhere it skips.
func TestRunSpinnerTmux(t *testing.T) {
	c := startTmux(t, tmuxOptions{width: 80, height: 12,
		answers: []llmtest.Answer{
			llmtest.Say("The answer is 42.").WithDelay(2500 * time.Millisecond),
			llmtest.Say("Quiet answer.").WithDelay(1500 * time.Millisecond)},
		command: func(bin string) []string {
			return []string{"sh", "-c", fmt.Sprintf(`%[1]s run hi; echo "[exit $?]"; %[1]s run again 2>err.log; echo "[quiet $?]"; sleep 60`, bin)}
		}})
	waitFor, proj := c.waitFor, c.proj
	waitFor("the spinner with its seconds", "waiting for gemini-2.5-flash… 1 s")
	screen := waitFor("the first run's end", "[exit 0]")
	if !strings.Contains(screen, "The answer is 42.") {
		t.Errorf("no answer on the screen:\n%s", screen)
	}
	screen = waitFor("the second run's end", "[quiet 0]")
	for _, residue := range []string{"waiting for", "⠋", "⠙", "⠹", "…"} {
		if strings.Contains(screen, residue) {
			t.Errorf("the spinner left %q on the screen:\n%s", residue, screen)
		}
	}
	// The answer starts its line: the spinner's line was erased, not
	// written over.
	if !strings.Contains("\n"+screen, "\nThe answer is 42.\n") || !strings.Contains("\n"+screen, "\nQuiet answer.\n") {
		t.Errorf("answers not on lines of their own:\n%s", screen)
	}
	log, err := os.ReadFile(filepath.Join(proj, "err.log"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(string(log), "\x1b\r⠋") || strings.Contains(string(log), "waiting") {
		t.Errorf("stderr to a file got the spinner: %q", log)
	}
}

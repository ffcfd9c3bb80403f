package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools"
)

func used(in, out int) *llm.Usage { return &llm.Usage{InputTokens: in, OutputTokens: out} }

// TestExploreKeepsReadsOut: the main model hands a search to the
// explorer, which reads three files and tries a write; the main
// conversation's next request carries the explorer's answer and the
// files it read, none of their contents; the write is refused even under
// the auto policy, and every token of both conversations counts.
func TestExploreKeepsReadsOut(t *testing.T) {
	dir := t.TempDir()
	contents := map[string]string{
		"a.go": "package a // alpha-body-7781\n",
		"b.go": "package b // beta-body-7782: retries = 3\n",
		"c.go": "package c // gamma-body-7783\n",
	}
	for name, text := range contents {
		writeTestFile(t, filepath.Join(dir, name), text)
	}
	script := llmtest.NewScript(
		llmtest.Reply{Text: `<tool_call name="explore" id="1"><task>where is the retry count set?</task></tool_call>`, Usage: used(100, 10)},
		llmtest.Reply{Text: read("1", "a.go") + read("2", "b.go") + read("3", "c.go"), Usage: used(200, 20)},
		llmtest.Reply{Text: `<tool_call name="write_file" id="4"><operation_type>create</operation_type><file_path>planted.txt</file_path><content>x</content></tool_call>`, Usage: used(300, 30)},
		llmtest.Reply{Text: "The retry count is 3, set in b.go line 1.", Usage: used(400, 40)},
		llmtest.Reply{Text: "It is 3 (b.go).", Usage: used(500, 50)},
	)
	c, err := testBuilder().New(t.Context(), conversation.Options{Dir: dir, Model: script, Policy: agent.PolicyAuto})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	var nested []agent.Event
	out, err := c.Run(t.Context(), "where is the retry count set?", func(e agent.Event) {
		if e.Type == agent.EventNested {
			if e.Call == nil || e.Call.Name != ExploreTool || e.Nested == nil {
				t.Errorf("nested event without its explore call: %+v", e)
				return
			}
			nested = append(nested, *e.Nested)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	reqs := script.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d model requests, want 5 (main, three of the explorer, main)", len(reqs))
	}

	// The explorer's own conversation: its role, only the tools that
	// read, the files' contents, and the write refused.
	sub := reqs[1]
	if !strings.Contains(sub.System, "You are an explorer") || strings.Contains(sub.System, "## write_file") || strings.Contains(sub.System, "## "+ExploreTool) {
		t.Errorf("explorer's system prompt is not its own read-only one:\n%s", sub.System)
	}
	if sub.Messages[0].Text != "where is the retry count set?" {
		t.Errorf("explorer's task = %q", sub.Messages[0].Text)
	}
	if reads := lastUser(reqs[2]); !strings.Contains(reads, "beta-body-7782") {
		t.Errorf("the explorer did not get the files it read: %s", reads)
	}
	third := lastUser(reqs[3])
	if !strings.Contains(third, tools.CodePolicyDenied) || !strings.Contains(third, "write_file was not run") {
		t.Errorf("the explorer's write was not refused: %s", third)
	}
	if _, err := os.Stat(filepath.Join(dir, "planted.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the explorer's write landed: %v", err)
	}

	// The main conversation: the answer and the paths, no contents.
	main := reqs[4]
	for _, m := range main.Messages {
		for name, text := range contents {
			if strings.Contains(m.Text, strings.Fields(text)[3]) {
				t.Errorf("the main conversation holds %s's content: %s", name, m.Text)
			}
		}
	}
	last := lastUser(main)
	for _, want := range []string{"The retry count is 3, set in b.go line 1.", "Looked at: a.go, b.go, c.go"} {
		if !strings.Contains(last, want) {
			t.Errorf("main request lacks %q: %s", want, last)
		}
	}
	log, err := os.ReadFile(c.SessionPath())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(log), "beta-body-7782") {
		t.Error("the session log holds what the explorer read")
	}

	want := llm.Usage{InputTokens: 1500, OutputTokens: 150}
	if out.Usage.InputTokens != want.InputTokens || out.Usage.OutputTokens != want.OutputTokens {
		t.Errorf("usage = %+v, want %+v (both conversations)", out.Usage, want)
	}
	var results, usages int
	for _, e := range nested {
		switch e.Type {
		case agent.EventResult:
			results++
		case agent.EventUsage:
			usages++
		}
	}
	if results != 4 || usages != 3 {
		t.Errorf("nested events: %d results, %d usages; want 4 and 3", results, usages)
	}
}

// TestExploreCannotNest: inside the explorer, explore and run_command
// are refused.
func TestExploreCannotNest(t *testing.T) {
	c, script, _ := newTestConversation(t, agent.PolicyAuto,
		`<tool_call name="explore" id="1"><task>look</task></tool_call>`,
		`<tool_call name="explore" id="1"><task>deeper</task></tool_call><tool_call name="run_command" id="2"><command>touch x</command></tool_call>`,
		"nothing found",
		"done",
	)
	out := say(t, c, "look")
	if got := codes(out); got != "" {
		t.Errorf("explore call codes = %q", got)
	}
	third := lastUser(script.Requests()[2])
	if strings.Count(third, tools.CodePolicyDenied) != 2 {
		t.Errorf("nested explore and command not both refused: %s", third)
	}
}

// TestExploreStops: cancelling the run (the chat's Esc) stops the
// explorer in the middle of its model call.
func TestExploreStops(t *testing.T) {
	script := llmtest.NewScript(
		llmtest.Reply{Text: `<tool_call name="explore" id="1"><task>look</task></tool_call>`},
		llmtest.Reply{Text: "thinking", Block: true},
	)
	c, err := testBuilder().New(t.Context(), conversation.Options{Dir: t.TempDir(), Model: script})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := c.Run(ctx, "look", func(e agent.Event) {
			if e.Type == agent.EventNested && e.Nested.Type == agent.EventText {
				cancel() // the explorer is streaming: stop it
			}
		})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("run ended with %v, want cancelled", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the explorer did not stop when the run was cancelled")
	}
}

func lastUser(r llm.Request) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == llm.User {
			return r.Messages[i].Text
		}
	}
	return ""
}

package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools"
)

func used(in, out int) *llm.Usage { return &llm.Usage{InputTokens: in, OutputTokens: out} }

// TestExploreKeepsReadsOut: the main model hands a search to the
// explorer (task with agent explore), which reads three files and tries a write; the main
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
		llmtest.Reply{Text: task("1", "explore", "where is the retry count set?"), Usage: used(100, 10)},
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
			if e.Call == nil || e.Call.Name != TaskTool || e.Nested == nil {
				t.Errorf("nested event without its task call: %+v", e)
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
	if !strings.Contains(sub.System, "You are an explorer") || strings.Contains(sub.System, "## write_file") || strings.Contains(sub.System, "- "+TaskTool+":") {
		t.Errorf("explorer's system prompt is not its own read-only one:\n%s", sub.System)
	}
	if sub.Messages[0].Text != "where is the retry count set?" {
		t.Errorf("explorer's task = %q", sub.Messages[0].Text)
	}
	if reads := lastUser(reqs[2]); !strings.Contains(reads, "beta-body-7782") {
		t.Errorf("the explorer did not get the files it read: %s", reads)
	}
	third := lastUser(reqs[3])
	if !strings.Contains(third, tools.CodePolicyDenied) || !strings.Contains(third, "write_file was not run: agent explore may use only read_file, list_directory, search_files") {
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

// TestExploreCannotNest: inside the explorer, task and run_command are
// refused.
func TestExploreCannotNest(t *testing.T) {
	c, script, _ := newTestConversation(t, agent.PolicyAuto,
		task("1", "explore", "look"),
		task("1", "explore", "deeper")+`<tool_call name="run_command" id="2"><command>touch x</command></tool_call>`,
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
		llmtest.Reply{Text: task("1", "explore", "look")},
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

// task is a task call.
func task(id, agentName, prompt string) string {
	return `<tool_call name="task" id="` + id + `"><agent>` + agentName + `</agent><prompt>` + prompt + `</prompt></tool_call>`
}

func lastUser(r llm.Request) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == llm.User {
			return r.Messages[i].Text
		}
	}
	return ""
}

// writeAgent writes an agent file at rel under dir.
func writeAgent(t *testing.T, dir, rel, frontMatter, body string) {
	t.Helper()
	writeTestFile(t, filepath.Join(dir, rel), "---\n"+frontMatter+"\n---\n\n"+body+"\n")
}

// TestTaskWritingAgentAsks: an agent with a tool that writes asks the
// person about its write, and the question names it; the write lands,
// is the conversation's own change, and comes back with the answer. It
// never runs beside other calls.
func TestTaskWritingAgentAsks(t *testing.T) {
	dir := t.TempDir()
	writeAgent(t, dir, ".agent/agents/writer.md", "name: writer\ndescription: Writes notes.\ntools: Read, Write", "Write what you are asked to.")
	script := llmtest.Texts(
		task("1", "writer", "write notes.md"),
		`<tool_call name="write_file" id="1"><operation_type>create</operation_type><file_path>notes.md</file_path><content>hello</content></tool_call>`,
		"I wrote notes.md.",
		"Done.",
	)
	c, err := testBuilder().New(t.Context(), conversation.Options{Dir: dir, Model: script, Policy: agent.PolicyAsk})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var asked []agent.Question
	c.SetAsker(agent.AskFunc(func(_ context.Context, q agent.Question) (agent.Answer, error) {
		asked = append(asked, q)
		return agent.Answer{Decision: agent.Allow}, nil
	}), "")
	out := say(t, c, "write the notes")
	if len(asked) != 1 || asked[0].Agent != "writer" || asked[0].Tool.Name != "write_file" {
		t.Fatalf("questions %+v, want one about writer's write_file", asked)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "notes.md")); err != nil || string(got) != "hello" {
		t.Errorf("notes.md = %q, %v", got, err)
	}
	res := out.Calls[0].Result
	if !slices.Equal(res.Changed, []string{"notes.md"}) || !strings.Contains(res.Content, "I wrote notes.md.\n\nChanged: notes.md") {
		t.Errorf("task result: changed %v, content %q", res.Changed, res.Content)
	}
	tt, _ := c.Tools().Lookup(TaskTool)
	conc := tt.(interface{ Concurrent(tools.Input) bool })
	if conc.Concurrent(tools.Input{Values: map[string]any{"agent": "writer"}}) || !conc.Concurrent(tools.Input{Values: map[string]any{"agent": ExploreAgent}}) {
		t.Error("the writer may run beside other calls, or the explorer may not")
	}
}

// TestTaskAgentInPlanMode: in plan mode an agent's write is refused as
// the main model's is, nobody asked.
func TestTaskAgentInPlanMode(t *testing.T) {
	dir := t.TempDir()
	writeAgent(t, dir, ".claude/agents/writer.md", "name: writer\ndescription: Writes notes.\ntools: Write", "")
	script := llmtest.Texts(
		task("1", "writer", "write notes.md"),
		`<tool_call name="write_file" id="1"><operation_type>create</operation_type><file_path>notes.md</file_path><content>hello</content></tool_call>`,
		"I could not.",
		"Done.",
	)
	c, err := testBuilder().New(t.Context(), conversation.Options{Dir: dir, Model: script, Policy: agent.PolicyPlan})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetAsker(agent.AskFunc(func(context.Context, agent.Question) (agent.Answer, error) {
		t.Error("a person was asked in plan mode")
		return agent.Answer{Decision: agent.Allow}, nil
	}), "")
	say(t, c, "write the notes")
	if _, err := os.Stat(filepath.Join(dir, "notes.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the write landed in plan mode: %v", err)
	}
	if got := lastUser(script.Requests()[2]); !strings.Contains(got, tools.CodePolicyDenied) {
		t.Errorf("the agent was not told its write was refused: %s", got)
	}
}

// TestTaskAgentOwnModel: the user's agent file that names a model runs
// on that model of the configuration, built as /model builds one; the
// main conversation stays on its own.
func TestTaskAgentOwnModel(t *testing.T) {
	dir, userDir := t.TempDir(), t.TempDir()
	writeAgent(t, userDir, "agents/fast.md", "name: fast\ndescription: Answers fast.\nmodel: tiny-model-7", "Be quick.")
	main := llmtest.Texts(task("1", "fast", "say hi"), "It said hi.")
	other := llmtest.Texts("hi")
	other.ModelName = "tiny-model-7"
	b := testBuilder()
	b.UserDir = userDir
	var built []string
	b.Config = func(_ context.Context, _ string, f config.Flags) (config.Config, error) {
		cfg := config.Defaults()
		cfg.Provider, cfg.Model = "gemini", f.Model
		cfg.APIKey = "test-key"
		return cfg, nil
	}
	b.Model = func(_ context.Context, cfg config.Config) (llm.Model, error) {
		built = append(built, cfg.Model)
		return other, nil
	}
	c, err := b.New(t.Context(), conversation.Options{Dir: dir, Model: main})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	out := say(t, c, "ask fast")
	if !slices.Equal(built, []string{"tiny-model-7"}) || len(other.Requests()) != 1 {
		t.Fatalf("models built %v, %d requests to the agent's model; want tiny-model-7 and 1", built, len(other.Requests()))
	}
	if !strings.Contains(other.Requests()[0].System, "Be quick.") {
		t.Errorf("the agent's model did not get its instructions:\n%s", other.Requests()[0].System)
	}
	if out.Answer != "It said hi." || len(main.Requests()) != 2 {
		t.Errorf("the main conversation: answer %q, %d requests", out.Answer, len(main.Requests()))
	}
}

// TestExploreToolRetired: a model that calls explore, the tool task
// replaced, is told how to call task instead.
func TestExploreToolRetired(t *testing.T) {
	c, script, _ := newTestConversation(t, agent.PolicyAuto,
		`<tool_call name="explore" id="1"><task>look</task></tool_call>`,
		"ok",
	)
	say(t, c, "look")
	got := lastUser(script.Requests()[1])
	if !strings.Contains(got, tools.CodeToolUnknown) || !strings.Contains(got, `call task with agent "explore"`) {
		t.Errorf("explore call answered: %s", got)
	}
}

// TestSubagentStop: the SubagentStop point is told when an agent ends,
// with its name, answer and the session; words it returns send the agent
// on (told so the second time), and the answer that comes back is the
// agent's last.
func TestSubagentStop(t *testing.T) {
	dir := t.TempDir()
	script := llmtest.Texts(task("1", "explore", "look"), "first look", "second look", "done")
	b := testBuilder()
	var ends []SubagentEnd
	b.SubagentStop = func(_ context.Context, _ config.Config, end SubagentEnd) string {
		ends = append(ends, end)
		if len(ends) == 1 {
			return "look again"
		}
		return ""
	}
	c, err := b.New(t.Context(), conversation.Options{Dir: dir, Model: script})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	out := say(t, c, "look")
	if len(ends) != 2 || ends[0].Agent != "explore" || ends[0].Answer != "first look" || ends[0].StopHookActive ||
		ends[1].Answer != "second look" || !ends[1].StopHookActive || ends[0].SessionID != c.SessionID() {
		t.Fatalf("ends %+v", ends)
	}
	if got := lastUser(script.Requests()[2]); got != "look again" {
		t.Errorf("the agent went on with %q, want the hook's words", got)
	}
	if res := out.Calls[0].Result; !strings.HasPrefix(res.Content, "second look") {
		t.Errorf("task answered %q, want the agent's last answer", res.Content)
	}
}

// TestAgentsCommand: /agents lists the built-in explorer and the
// project's agents with their tools and model, and a bad file's line.
func TestAgentsCommand(t *testing.T) {
	dir := t.TempDir()
	writeAgent(t, dir, ".claude/agents/reviewer.md", "name: reviewer\ndescription: Reviews code. Use after writing code.\ntools: Read, Grep", "Review.")
	writeAgent(t, dir, ".claude/agents/bad.md", "name: Bad", "")
	c, err := testBuilder().New(t.Context(), conversation.Options{Dir: dir, Model: llmtest.Texts()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got := command(t, c, "agents", "").Text
	for _, want := range []string{
		"| explore | built-in | read_file, list_directory, search_files, skill | inherit |",
		"| reviewer | .claude/agents/reviewer.md | read_file, search_files | inherit | Reviews code. |",
		"agent file .claude/agents/bad.md skipped:",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("/agents lacks %q:\n%s", want, got)
		}
	}
}

package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools"
)

// TestClearForgetsReads: after /clear the new conversation's model has
// read nothing, so a rewrite of a file read before is refused as stale
// and the file is left alone.
func TestClearForgetsReads(t *testing.T) {
	c, _, dir := newTestConversation(t, agent.PolicyAuto,
		read("1", "a.txt"), "Read it.",
		rewrite("2", "a.txt", "new\n"), "Tried.")
	writeTestFile(t, filepath.Join(dir, "a.txt"), "old\n")
	say(t, c, "read a.txt")
	command(t, c, "clear", "")
	out := say(t, c, "rewrite a.txt")
	if got := codes(out); got != tools.CodeFileStale {
		t.Errorf("rewrite after /clear answered %q, want %s", got, tools.CodeFileStale)
	}
	if got := fileOf(dir, "a.txt"); got != "old\n" {
		t.Errorf("a.txt = %q after a refused rewrite", got)
	}
}

// TestResumeReplacesReads: /resume of a session that never read a file
// brings that session's reads instead of adding them to this one's, so
// a rewrite of a file only the other session read is refused; resuming
// the session that read it lets the rewrite through.
func TestResumeReplacesReads(t *testing.T) {
	c, _, dir := newTestConversation(t, agent.PolicyAuto,
		"Hello.",
		read("1", "a.txt"), "Read it.",
		rewrite("2", "a.txt", "new\n"), "Tried.",
		rewrite("3", "a.txt", "newer\n"), "Done.")
	writeTestFile(t, filepath.Join(dir, "a.txt"), "old\n")
	say(t, c, "hello") // a session that never reads a.txt
	never := c.SessionID()
	command(t, c, "clear", "")
	say(t, c, "read a.txt")
	reader := c.SessionID()
	if r := command(t, c, "resume", never); !r.Cleared {
		t.Fatalf("/resume = %+v", r)
	}
	if got := codes(say(t, c, "rewrite a.txt")); got != tools.CodeFileStale {
		t.Errorf("rewrite after /resume of a session that never read it answered %q, want %s", got, tools.CodeFileStale)
	}
	command(t, c, "resume", reader)
	if got := codes(say(t, c, "rewrite it now")); got != "" {
		t.Errorf("rewrite after /resume of the session that read it answered %q, want success", got)
	}
	if got := fileOf(dir, "a.txt"); got != "newer\n" {
		t.Errorf("a.txt = %q", got)
	}
}

// alwaysAsker answers every question "always" and counts them.
type alwaysAsker struct{ asked int }

func (a *alwaysAsker) Ask(context.Context, agent.Question) (agent.Answer, error) {
	a.asked++
	return agent.Answer{Decision: agent.AllowAlways}, nil
}

// TestRewindForgetsAlways: an "always" given in a turn holds for the
// turns after it, still holds after a rewind to a later turn, and is
// forgotten by a rewind to before the turn that gave it.
func TestRewindForgetsAlways(t *testing.T) {
	c, _, _ := newTestConversation(t, agent.PolicyAsk,
		"Hello.",
		create("1", "b.txt", "b"), "Made b.",
		create("2", "c.txt", "c"), "Made c.",
		create("3", "d.txt", "d"), "Made d.",
		create("4", "e.txt", "e"), "Made e.")
	ask := &alwaysAsker{}
	c.SetAsker(ask, "")
	say(t, c, "hello")
	say(t, c, "make b") // turn 2: asked, "always"
	say(t, c, "make c") // turn 3: not asked
	if ask.asked != 1 {
		t.Fatalf("asked %d times before the rewinds, want 1", ask.asked)
	}
	turns := c.Turns()
	command(t, c, "rewind", turns[2].Run) // before turn 3: the always of turn 2 stays
	say(t, c, "make d")
	if ask.asked != 1 {
		t.Errorf("asked %d times after a rewind to after the always, want 1", ask.asked)
	}
	command(t, c, "rewind", turns[1].Run) // before turn 2, which gave it
	out := say(t, c, "make e")
	if ask.asked != 2 || codes(out) != "" {
		t.Errorf("asked %d times (result %q) after a rewind to before the always, want 2", ask.asked, codes(out))
	}
}

// TestClearForgetsAlways: a new conversation asks again.
func TestClearForgetsAlways(t *testing.T) {
	c, _, _ := newTestConversation(t, agent.PolicyAsk,
		create("1", "b.txt", "b"), "Made b.",
		create("2", "c.txt", "c"), "Made c.",
		create("3", "d.txt", "d"), "Made d.")
	ask := &alwaysAsker{}
	c.SetAsker(ask, "")
	say(t, c, "make b")
	say(t, c, "make c")
	command(t, c, "clear", "")
	say(t, c, "make d")
	if ask.asked != 2 {
		t.Errorf("asked %d times, want 2: once before /clear, once after", ask.asked)
	}
}

// TestSetPolicyIsTheConversations: the policy set on the conversation is
// the one its loop decides with, and Info shows it.
func TestSetPolicyIsTheConversations(t *testing.T) {
	c, _, dir := newTestConversation(t, agent.PolicyAsk, create("1", "b.txt", "b"), "Refused.", create("2", "b.txt", "b"), "Made.")
	c.SetPolicy(agent.PolicyPlan)
	if got := codes(say(t, c, "make b")); got != tools.CodePolicyDenied || c.Info().Policy != agent.PolicyPlan {
		t.Errorf("in plan mode: %q, shown %s", got, c.Info().Policy)
	}
	c.SetPolicy(agent.PolicyAuto)
	if got := codes(say(t, c, "make b")); got != "" || fileOf(dir, "b.txt") != "b" {
		t.Errorf("under auto: %q, b.txt %q", got, fileOf(dir, "b.txt"))
	}
}

// TestModelKnowsEveryPreset: /model PROVIDER/NAME knows each preset, so
// that a new preset works there at once; another prefix is part of the
// model's name.
func TestModelKnowsEveryPreset(t *testing.T) {
	for _, name := range config.PresetNames() {
		if !conversation.KnownProvider(name) {
			t.Errorf("knownProvider(%q) = false", name)
		}
	}
	if conversation.KnownProvider("bogus") {
		t.Error(`knownProvider("bogus") = true`)
	}
}

// TestToolSessionCarriesReads: agent tool-call's state file carries what
// was read from one process to the next, as a continued conversation
// does; without it the rewrite of a file read elsewhere is stale.
func TestToolSessionCarriesReads(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "a.txt"), "old\n")
	state := filepath.Join(t.TempDir(), "state.json")
	b, cfg := testBuilder(), config.Defaults()
	reg, save, err := b.ToolSession(t.Context(), dir, cfg, state)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := reg.Call(t.Context(), "read_file", map[string]string{"file_path": "a.txt"}); err != nil || res.IsError() {
		t.Fatalf("read: %+v, %v", res, err)
	}
	if err := save(); err != nil {
		t.Fatal(err)
	}
	rewrite := map[string]string{"operation_type": "rewrite", "file_path": "a.txt", "content": "new\n"}
	for _, tc := range []struct {
		state, code string
	}{{"", tools.CodeFileStale}, {state, ""}} {
		reg, save, err := b.ToolSession(t.Context(), dir, cfg, tc.state)
		if err != nil {
			t.Fatal(err)
		}
		res, err := reg.Call(t.Context(), "write_file", rewrite)
		if err != nil || res.Code != tc.code {
			t.Errorf("rewrite with state %q: %+v, %v; want code %q", tc.state, res, err, tc.code)
		}
		save()
	}
}

// TestReadCommand: the project's command files are read through the
// conversation's sandbox (a link to a secret is refused, naming the
// file), the user's from their folder.
func TestReadCommand(t *testing.T) {
	user := t.TempDir()
	dir := t.TempDir()
	b := testBuilder()
	b.UserDir = user
	c, err := b.New(t.Context(), conversation.Options{Dir: dir, Model: llmtest.Texts(), Policy: agent.PolicyAuto})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	writeTestFile(t, filepath.Join(dir, ".agent", "commands", "review.md"), "Review $ARGUMENTS.\n")
	writeTestFile(t, filepath.Join(dir, ".env"), "KEY=secret\n")
	if err := os.Symlink(filepath.Join(dir, ".env"), filepath.Join(dir, ".agent", "commands", "env.md")); err != nil {
		t.Fatal(err)
	}
	if b, err := c.ReadCommand(false, "review.md"); err != nil || string(b) != "Review $ARGUMENTS.\n" {
		t.Errorf("ReadCommand(review.md) = %q, %v", b, err)
	}
	if b, err := c.ReadCommand(false, "env.md"); err == nil || !strings.Contains(err.Error(), filepath.Join(".agent", "commands", "env.md")) {
		t.Errorf("ReadCommand(env.md) = %q, %v; want a refusal naming the file", b, err)
	}
	writeTestFile(t, filepath.Join(user, "commands", "mine.md"), "Mine.\n")
	if b, err := c.ReadCommand(true, "mine.md"); err != nil || string(b) != "Mine.\n" {
		t.Errorf("ReadCommand(user mine.md) = %q, %v", b, err)
	}
}

// TestSwitchModelTakesItsWindow: /model to a model with another window
// sizes the budget (whole-file reads, what is cut) to the new one, not
// the first model's.
func TestSwitchModelTakesItsWindow(t *testing.T) {
	dir := t.TempDir()
	script := llmtest.Texts("hi")
	b := testBuilder()
	b.Config = func(_ context.Context, _ string, flags config.Flags) (config.Config, error) {
		cfg := config.Defaults()
		cfg.Model = flags.Model
		cfg.Models = map[string]config.ModelConfig{"small": {ContextWindow: 8192}, "large": {ContextWindow: 200000}}
		return cfg, nil
	}
	b.Model = func(context.Context, config.Config) (llm.Model, error) { return script, nil }
	c, err := b.New(t.Context(), conversation.Options{Dir: dir, Flags: config.Flags{Model: "large"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if w, _ := c.Window(); w != 200000 {
		t.Fatalf("window at start: %d, want 200000", w)
	}
	if _, err := c.SwitchModel(t.Context(), "small"); err != nil {
		t.Fatal(err)
	}
	if w, _ := c.Window(); w != 8192 {
		t.Errorf("window after /model small: %d, want 8192", w)
	}
}

// TestConversationListsItsProject: a conversation adds its project to
// the user's list, so that the sandboxes of other projects hide its
// records (conversation.OtherRecords).
func TestConversationListsItsProject(t *testing.T) {
	user, dir, other := t.TempDir(), t.TempDir(), t.TempDir()
	b := testBuilder()
	b.UserDir = user
	c, err := b.New(t.Context(), conversation.Options{Dir: dir, Model: llmtest.Texts(), Policy: agent.PolicyAuto})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if got := conversation.OtherRecords(user, other); len(got) != 1 || got[0] != filepath.Join(dir, ".agent") {
		t.Errorf("OtherRecords(another project) = %v; want %s's .agent", got, dir)
	}
}

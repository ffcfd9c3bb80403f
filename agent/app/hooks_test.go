package app

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools/programs"
)

// hookedConversation is a conversation whose configuration is the user
// file text (hooks in it), over a scripted model given as the configured
// provider's, so that the hooks run as they do for a person.
func hookedConversation(t *testing.T, text string, policy agent.Policy, replies ...string) (*conversation.Conversation, *llmtest.Script, string) {
	t.Helper()
	dir := t.TempDir()
	user := filepath.Join(t.TempDir(), "config.toml")
	writeTestFile(t, user, text)
	script := llmtest.Texts(replies...)
	b := testBuilder()
	b.Config = func(_ context.Context, dir string, _ config.Flags) (config.Config, error) {
		return config.Load(config.Input{Files: []string{user}, Env: map[string]string{"GEMINI_API_KEY": "k"}})
	}
	b.Model = func(context.Context, config.Config) (llm.Model, error) { return script, nil }
	b.Programs = func(string, config.Config) *programs.Resolver {
		return programs.New(programs.Options{Path: os.Getenv("PATH")})
	}
	c, err := b.New(t.Context(), conversation.Options{Dir: dir, Policy: policy})
	if err != nil {
		t.Fatal(err)
	}
	return c, script, dir
}

// logEvents is a hook that appends each event it is told of, and what it
// is about, to events.log in the project.
const logEvents = `python3 -c '
import json, sys
d = json.load(sys.stdin)
what = d.get("source") or d.get("reason") or d.get("message") or d.get("prompt") or d.get("tool_name") or ""
open("events.log", "a").write(d["hook_event_name"] + " " + what + "\n")
'`

// needPython skips a test without python3, which logEvents runs; under
// CI it fails instead.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is missing")
		}
		t.Skip("python3 is not installed")
	}
}

func eventsLog(t *testing.T, dir string) string {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(dir, "events.log"))
	return string(b)
}

// A conversation fires the hooks of its life in order: SessionStart, the
// message's UserPromptSubmit, the Stop of its answer, a Notification
// that it waits, and at /clear and the end, SessionEnd and SessionStart.
func TestConversationHookLife(t *testing.T) {
	needPython(t)
	var cfg strings.Builder
	for _, e := range []string{"SessionStart", "UserPromptSubmit", "Stop", "Notification", "SessionEnd"} {
		cfg.WriteString("[[hooks." + e + "]]\ncommand = '''" + logEvents + "'''\n")
	}
	c, _, dir := hookedConversation(t, cfg.String(), agent.PolicyAsk, "Hello.")
	say(t, c, "hi there")
	command(t, c, "clear", "")
	if r := command(t, c, "hooks", ""); !strings.Contains(r.Text, "- UserPromptSubmit: python3 -c") || !strings.Contains(r.Text, "from your config") {
		t.Errorf("/hooks says:\n%s", r.Text)
	}
	c.Close()
	want := "SessionStart startup\nUserPromptSubmit hi there\nStop \nNotification the turn is over\nSessionEnd clear\nSessionStart clear\nSessionEnd exit\n"
	if got := eventsLog(t, dir); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
}

// A UserPromptSubmit hook that exits 2 keeps the message from the model:
// no request, no turn begun.
func TestPromptBlockedByAHook(t *testing.T) {
	c, script, _ := hookedConversation(t, "[[hooks.UserPromptSubmit]]\ncommand = \"echo 'no secrets in prompts' >&2; exit 2\"\n", agent.PolicyAsk, "Hello.")
	defer c.Close()
	var hookLines []string
	_, err := c.Run(t.Context(), "my password is hunter2", func(e agent.Event) {
		if e.Type == agent.EventHook {
			hookLines = append(hookLines, e.Text)
		}
	})
	var blocked *agent.PromptBlockedError
	if !errors.As(err, &blocked) || blocked.Reason != "no secrets in prompts" {
		t.Fatalf("err %v, want the message blocked with the hook's reason", err)
	}
	if len(script.Requests()) != 0 || len(c.Session().Turns()) != 0 {
		t.Errorf("%d requests, %d turns: the blocked message went on", len(script.Requests()), len(c.Session().Turns()))
	}
	if len(hookLines) != 1 || hookLines[0] != "hook echo blocked the prompt: no secrets in prompts" {
		t.Errorf("hook lines %q", hookLines)
	}
}

// The Notification hooks run before a person is asked about a call.
func TestNotificationBeforeTheQuestion(t *testing.T) {
	needPython(t)
	write := `<tool_call name="write_file" id="1"><operation_type>create</operation_type><file_path>a.md</file_path><content>x</content></tool_call>`
	c, _, dir := hookedConversation(t, "[[hooks.Notification]]\ncommand = '''"+logEvents+"'''\n", agent.PolicyAsk, write, "Done.")
	defer c.Close()
	var seen string
	c.SetAsker(agent.AskFunc(func(context.Context, agent.Question) (agent.Answer, error) {
		seen = eventsLog(t, dir)
		return agent.Answer{Decision: agent.Allow}, nil
	}), "")
	say(t, c, "write a.md")
	if seen != "Notification approve create a.md?\n" {
		t.Errorf("when asked, the hooks had been told %q", seen)
	}
}

// A PreCompact hook runs before /compact summarises.
func TestPreCompactHook(t *testing.T) {
	c, _, dir := hookedConversation(t, "[[hooks.PreCompact]]\ncommand = 'cat > pre.json'\n", agent.PolicyAsk, "One.", "Two.", "The summary.")
	defer c.Close()
	say(t, c, "one")
	say(t, c, "two")
	if _, err := c.Compact(t.Context()); err != nil {
		t.Fatal(err)
	}
	var in struct {
		Event   string `json:"hook_event_name"`
		Trigger string `json:"trigger"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, "pre.json"))
	if err := json.Unmarshal(b, &in); err != nil || in.Event != "PreCompact" || in.Trigger != "manual" {
		t.Errorf("the hook read %s (%v)", b, err)
	}
}

// What the hooks of /clear did is in its reply: the chat owns the
// terminal, so nothing is written to it.
func TestClearSaysWhatItsHooksDid(t *testing.T) {
	c, _, _ := hookedConversation(t, "[[hooks.SessionStart]]\ncommand = \"echo 'the tests are slow here'\"\n", agent.PolicyAsk)
	defer c.Close()
	r := command(t, c, "clear", "")
	if !strings.Contains(r.Text, "hook echo added context to the session") {
		t.Errorf("/clear says:\n%s", r.Text)
	}
}

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
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools/notes"
)

// testBuilder is the Builder with the default configuration and the
// notes in the project's SQLite file: the agent's own tools, sessions
// and backups, nothing read from the user's machine.
func testBuilder() *Builder {
	return &Builder{
		LocalConfig: func(string) (config.Config, error) { return config.Defaults(), nil },
		Notes: func(_ config.Config, root string) notes.Store {
			return notes.NewLazy(func(ctx context.Context) (notes.Store, error) {
				return notes.OpenSQLite(ctx, filepath.Join(root, ".agent", "notes.db"), notes.Options{})
			})
		},
	}
}

// newTestConversation is a real conversation (the builder, the file
// tools, sessions and backups) over a scripted model in a temporary
// project, starting with policy.
func newTestConversation(t *testing.T, policy agent.Policy, replies ...string) (*conversation.Conversation, *llmtest.Script, string) {
	t.Helper()
	dir := t.TempDir()
	script := llmtest.Texts(replies...)
	c, err := testBuilder().New(t.Context(), conversation.Options{Dir: dir, Model: script, Policy: policy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, script, dir
}

// say runs one turn, which must not fail, and returns its outcome.
func say(t *testing.T, c *conversation.Conversation, text string) *agent.Outcome {
	t.Helper()
	out, err := c.Run(t.Context(), text, nil)
	if err != nil {
		t.Fatalf("turn %q: %v", text, err)
	}
	return out
}

// runCommand runs the slash command name with args.
func runCommand(t *testing.T, c *conversation.Conversation, name, args string) (conversation.Reply, error) {
	t.Helper()
	for _, cmd := range c.Commands() {
		if cmd.Name == name {
			return cmd.Run(t.Context(), args)
		}
	}
	t.Fatalf("no command /%s", name)
	return conversation.Reply{}, nil
}

// command runs the slash command name with args, which must not fail.
func command(t *testing.T, c *conversation.Conversation, name, args string) conversation.Reply {
	t.Helper()
	r, err := runCommand(t, c, name, args)
	if err != nil {
		t.Fatalf("/%s %s: %v", name, args, err)
	}
	return r
}

func writeTestFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(id, path string) string {
	return `<tool_call name="read_file" id="` + id + `"><file_path>` + path + `</file_path></tool_call>`
}

// codes are the result codes of an outcome's calls ("" for success).
func codes(out *agent.Outcome) string {
	var cs []string
	for _, c := range out.Calls {
		cs = append(cs, c.Result.Code)
	}
	return strings.Join(cs, ",")
}

package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
)

func writeCall(op, path, content string) string {
	return `<tool_call name="write_file"><operation_type>` + op + `</operation_type><file_path>` + path + `</file_path><content><![CDATA[` + content + `]]></content></tool_call>`
}

// askRecorder answers every question yes and keeps what it was asked.
type askRecorder struct{ asked []agent.Question }

func (a *askRecorder) Ask(_ context.Context, q agent.Question) (agent.Answer, error) {
	a.asked = append(a.asked, q)
	return agent.Answer{Decision: agent.Allow}, nil
}

const agentsMD = "# AGENTS.md\n\n## Build and test\n\n- `make test` runs the tests.\n"

// TestInitTurnLooksAndWritesAgentsMDOnly: /init's turn reads the project,
// refuses a command and a write of another file without asking anyone,
// asks about AGENTS.md like any write (with its diff) and writes it on
// yes; the next turn has every tool back.
func TestInitTurnLooksAndWritesAgentsMDOnly(t *testing.T) {
	c, script, dir := newTestConversation(t, agent.PolicyAsk,
		read("1", "Makefile"),
		`<tool_call name="run_command"><command>make test</command></tool_call>`,
		writeCall("create", "NOTES.md", "notes\n"),
		writeCall("create", "./AGENTS.md", agentsMD),
		"Wrote AGENTS.md.",
		writeCall("create", "other.txt", "back\n"),
		"Done.",
	)
	writeTestFile(t, filepath.Join(dir, "Makefile"), "test:\n\tgo test ./...\n")
	asker := &askRecorder{}
	c.SetAsker(asker, "")

	r := command(t, c, "init", "")
	if !strings.Contains(r.Send, "draft this project's AGENTS.md") || !strings.Contains(r.Send, "There is no AGENTS.md yet: create it") {
		t.Fatalf("/init sends:\n%s", r.Send)
	}
	out := say(t, c, r.Send)
	if got, want := codes(out), ",TOOL_POLICY_DENIED,TOOL_POLICY_DENIED,"; got != want {
		t.Errorf("codes %q, want %q", got, want)
	}
	for _, cr := range out.Calls[1:3] {
		if !strings.Contains(cr.Result.Message, "/init") {
			t.Errorf("refusal %q does not say why", cr.Result.Message)
		}
	}
	if len(asker.asked) != 1 || !strings.Contains(asker.asked[0].Preview.Diff, "+- `make test` runs the tests.") {
		t.Fatalf("asked %d questions %+v, want one about AGENTS.md with its diff", len(asker.asked), asker.asked)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "AGENTS.md")); err != nil || string(got) != agentsMD {
		t.Errorf("AGENTS.md = %q, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "NOTES.md")); err == nil {
		t.Errorf("NOTES.md was written in /init's turn")
	}
	if first := script.Requests()[0].Messages[0].Text; !strings.Contains(first, "write_file runs for AGENTS.md only") {
		t.Errorf("the model was not told what this turn may do:\n%s", first)
	}

	out = say(t, c, "now write other.txt")
	if codes(out) != "" || len(asker.asked) != 2 {
		t.Errorf("the turn after /init: codes %q, %d questions; want the write asked about and run", codes(out), len(asker.asked))
	}
}

// TestInitImprovesAnExistingAgentsMD: with an AGENTS.md there, /init
// asks the model to improve it, and a rewrite of it the model has not
// read is refused before anyone is asked: the owner's file is read
// before it is changed.
func TestInitImprovesAnExistingAgentsMD(t *testing.T) {
	const old = "# Rules\n\nNever push to main.\n"
	improved := old + "\n## Build and test\n\n- `make test`\n"
	c, _, dir := newTestConversation(t, agent.PolicyAsk,
		writeCall("rewrite", "AGENTS.md", "# New\n"),
		read("1", "AGENTS.md"),
		writeCall("rewrite", "AGENTS.md", improved),
		"Improved AGENTS.md.",
	)
	writeTestFile(t, filepath.Join(dir, "AGENTS.md"), old)
	writeTestFile(t, filepath.Join(dir, "CLAUDE.md"), "Use tabs.\n")
	asker := &askRecorder{}
	c.SetAsker(asker, "")

	msg := c.PrepareInit()
	for _, want := range []string{"AGENTS.md exists: read it whole first, then improve it, not replace it", "CLAUDE.md holds instructions too"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the message lacks %q:\n%s", want, msg)
		}
	}
	out := say(t, c, msg)
	if codes(out) == "" || out.Calls[0].Result.Code == "" {
		t.Fatalf("a rewrite of the unread AGENTS.md ran: %+v", out.Calls[0].Result)
	}
	if len(asker.asked) != 1 || !strings.Contains(asker.asked[0].Preview.Diff, "+- `make test`") || strings.Contains(asker.asked[0].Preview.Diff, "-Never push to main.") {
		t.Fatalf("questions %+v, want one whose diff keeps the owner's rule", asker.asked)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "AGENTS.md")); string(got) != improved {
		t.Errorf("AGENTS.md = %q, want %q", got, improved)
	}
}

// TestExportCommand: /export writes the conversation as Markdown beside
// its session log and names the file.
func TestExportCommand(t *testing.T) {
	c, _, dir := newTestConversation(t, agent.PolicyAsk, read("1", "a.txt"), "It says hello.")
	if r := command(t, c, "export", ""); !strings.Contains(r.Text, "Nothing to export") {
		t.Errorf("/export of an empty conversation: %q", r.Text)
	}
	writeTestFile(t, filepath.Join(dir, "a.txt"), "hello\n")
	say(t, c, "what does a.txt say?")
	r := command(t, c, "export", "")
	name := filepath.Join(".agent", "sessions", c.SessionID()+".md")
	if !strings.Contains(r.Text, "`"+name+"`") {
		t.Fatalf("/export says %q, want the file named", r.Text)
	}
	got, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## You\n\n", "what does a.txt say?\n\n## Agent\n\n", "- **read_file** file_path=a.txt\n  ✓ ", "```\n  hello\n  ```", "It says hello."} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the export lacks %q:\n%s", want, got)
		}
	}
}

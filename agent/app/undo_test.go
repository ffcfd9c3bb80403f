package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/tools/sandbox/backup"
)

func fileOf(dir, name string) string {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return "<missing>"
	}
	return string(b)
}

func create(id, path, content string) string {
	return `<tool_call name="write_file" id="` + id + `"><operation_type>create</operation_type><file_path>` + path + `</file_path><content>` + content + `</content></tool_call>`
}

func rewrite(id, path, content string) string {
	return `<tool_call name="write_file" id="` + id + `"><operation_type>rewrite</operation_type><file_path>` + path + `</file_path><content>` + content + `</content></tool_call>`
}

// /rewind takes the files and the conversation back to before the picked
// turn together, records it so a resumed session is rewound too, and
// gives the turn's message back to the input box.
func TestChatRewind(t *testing.T) {
	b, script, dir := newTestConversation(t, agent.PolicyAuto,
		create("1", "a.txt", "one\n"), "Done one.",
		rewrite("2", "a.txt", "two\n")+create("3", "new/b.txt", "bee\n"), "Done two.",
		"Just talking.",
		"Fresh answer.")
	say(t, b, "first")
	say(t, b, "second")
	say(t, b, "third")
	if fileOf(dir, "a.txt") != "two\n" || fileOf(dir, "new/b.txt") != "bee\n" {
		t.Fatalf("setup: a=%q b=%q", fileOf(dir, "a.txt"), fileOf(dir, "new/b.txt"))
	}

	r := command(t, b, "rewind", "")
	if len(r.Choices) != 3 || !strings.Contains(r.Choices[0].Label, "third") || !strings.Contains(r.Choices[2].Label, "first") {
		t.Fatalf("rewind choices = %+v", r.Choices)
	}
	r = command(t, b, "rewind", r.Choices[1].Value) // before "second"
	if r.Input != "second" || !r.Cleared {
		t.Errorf("rewind reply = %+v, want the input refilled with %q", r, "second")
	}
	if fileOf(dir, "a.txt") != "one\n" {
		t.Errorf("a.txt after rewind = %q", fileOf(dir, "a.txt"))
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); !os.IsNotExist(err) {
		t.Errorf("the folder the rewound turn made is still there: %v", err)
	}
	msgs := b.Session().Messages()
	if last := msgs[len(msgs)-1]; last.Text != "Done one." {
		t.Errorf("conversation after rewind ends with %q", last.Text)
	}
	for _, m := range msgs {
		if strings.Contains(m.Text, "second") || strings.Contains(m.Text, "third") {
			t.Errorf("a rewound turn is still in the conversation: %q", m.Text)
		}
	}

	// A rewind clears what could be redone, in the chat and for
	// `agent redo` (which reads the session from disk).
	if r := command(t, b, "redo", ""); !strings.Contains(r.Text, "Nothing to redo") {
		t.Errorf("/redo after the rewind = %q, want nothing to redo", r.Text)
	}
	if fileOf(dir, "a.txt") != "one\n" {
		t.Errorf("a.txt after /redo = %q, want the rewound state", fileOf(dir, "a.txt"))
	}
	root := (&Builder{}).FileRoot(dir, config.Defaults())
	if rewound, err := conversation.RedoRewound(root, nil); err != nil || !rewound {
		t.Errorf("redoRewound from disk = %v, %v; want true", rewound, err)
	}
	root.Close()

	// The next message goes on from the rewound state, with no note of
	// the rewound files as changed by someone else.
	say(t, b, "second, better")
	req := script.Requests()[len(script.Requests())-1]
	if n := len(req.Messages); n != len(msgs)+1 {
		t.Errorf("request after rewind has %d messages, want %d", n, len(msgs)+1)
	}
	if last := req.Messages[len(req.Messages)-1].Text; last != "second, better" {
		t.Errorf("first message after the rewind = %q", last)
	}

	// A resumed session starts from the rewound state.
	s, err := agent.OpenSession(dir, b.SessionID())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var texts []string
	for _, m := range s.Messages() {
		texts = append(texts, m.Text)
	}
	got := strings.Join(texts, "|")
	if strings.Contains(got, "Done two.") || !strings.HasSuffix(got, "second, better|Fresh answer.") {
		t.Errorf("resumed conversation = %q", got)
	}
}

// /undo reverts the last turn's files and the next message tells the
// model, once, in one note; the watcher does not report them again.
func TestChatUndoTellsTheModel(t *testing.T) {
	b, script, dir := newTestConversation(t, agent.PolicyAuto,
		create("1", "a.txt", "one\n"), "Done.",
		"Talk.", "Noted.", "Still here.")
	say(t, b, "make a")
	say(t, b, "talk") // the watcher now knows a.txt
	r := command(t, b, "undo", "")
	if !strings.Contains(r.Text, "Undid turn 1") || fileOf(dir, "a.txt") != "<missing>" {
		t.Fatalf("/undo = %q, a.txt %q", r.Text, fileOf(dir, "a.txt"))
	}
	say(t, b, "what now")
	last := script.Requests()[3].Messages
	text := last[len(last)-1].Text
	if !strings.HasPrefix(text, `[The user undid your edits of turn 1 ("make a"): a.txt`) || strings.Contains(text, "outside the agent") {
		t.Errorf("message after /undo = %q", text)
	}
	say(t, b, "and now")
	last = script.Requests()[4].Messages
	if text := last[len(last)-1].Text; text != "and now" {
		t.Errorf("the note came twice: %q", text)
	}
	if r := command(t, b, "redo", ""); !strings.Contains(r.Text, "Redid turn 1") || fileOf(dir, "a.txt") != "one\n" {
		t.Errorf("/redo = %q, a.txt %q", r.Text, fileOf(dir, "a.txt"))
	}
}

// TestChatUndoRefusesPlantedBackups: the chat's /undo does not write the
// content of backups the project came with (not signed by this user's
// key), and says so in one line.
func TestChatUndoRefusesPlantedBackups(t *testing.T) {
	b, _, dir := newTestConversation(t, agent.PolicyAuto)
	payload, safe := "planted\n", "safe\n"
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	line, _ := json.Marshal(backup.Entry{ChangeSet: "evil", Run: "evil", Path: "a.md", Op: backup.OpRewrite, Existed: true,
		Blob: "evil/1-a.md", Mode: 0o644, SHA256Before: sum(payload), SHA256After: sum(safe), Time: time.Now()})
	for name, content := range map[string]string{"a.md": safe, ".agent/backups/manifest.jsonl": string(line) + "\n", ".agent/backups/evil/1-a.md": payload} {
		writeTestFile(t, filepath.Join(dir, name), content)
	}
	_, err := runCommand(t, b, "undo", "")
	if err == nil || !strings.Contains(err.Error(), "not written by your agent") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("/undo of planted backups: %v", err)
	}
	if got := fileOf(dir, "a.md"); got != safe {
		t.Errorf("/undo wrote the planted content: %q", got)
	}
}

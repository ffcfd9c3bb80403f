package agent

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm"
)

func TestSessionLogIsWrittenAsItHappens(t *testing.T) {
	e := newEnv(t, texts(readREADME, "ok")...)
	e.writeFile("README.md", "r")
	// Check the log while the second model call is being made: the
	// prompt, the first reply and the responses must already be on disk.
	var onDisk []map[string]any
	e.agent.Model = &hookModel{Model: e.model, before: func(n int) {
		if n == 2 {
			onDisk = readJSONL(t, e.agent.Session.Path())
		}
	}}
	if _, err := e.run("go"); err != nil {
		t.Fatal(err)
	}
	if len(onDisk) != 4 {
		t.Fatalf("log before the second call has %d lines, want header + 3 messages", len(onDisk))
	}
	lines := readJSONL(t, e.agent.Session.Path())
	if len(lines) != 5 {
		t.Fatalf("log has %d lines, want 5", len(lines))
	}
	if lines[0]["type"] != "session" || lines[0]["id"] != e.agent.Session.ID {
		t.Errorf("header = %v", lines[0])
	}
	roles := []string{"user", "assistant", "user", "assistant"}
	for i, want := range roles {
		if got := lines[i+1]["role"]; got != want {
			t.Errorf("line %d role = %v, want %s", i+2, got, want)
		}
	}
	if got := lines[4]["text"]; got != "ok" {
		t.Errorf("last message = %v", got)
	}
}

func TestOpenSessionResumesTheConversation(t *testing.T) {
	e := newEnv(t, texts(readREADME, "first answer")...)
	e.writeFile("README.md", "r")
	if _, err := e.run("first question"); err != nil {
		t.Fatal(err)
	}
	e.agent.Session.Close()

	id, err := LastSession(e.root)
	if err != nil || id != e.agent.Session.ID {
		t.Fatalf("LastSession = %q, %v; want %q", id, err, e.agent.Session.ID)
	}
	s, err := OpenSession(e.root, id)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := len(s.Messages()); got != 4 {
		t.Fatalf("resumed %d messages, want 4", got)
	}
	if s.Replies() != 2 {
		t.Errorf("Replies = %d, want 2", s.Replies())
	}
	if err := s.Append(llm.Message{Role: llm.User, Text: "second question"}); err != nil {
		t.Fatal(err)
	}
	lines := readJSONL(t, s.Path())
	if len(lines) != 6 || lines[5]["text"] != "second question" {
		t.Errorf("log after resume = %v", lines)
	}
	if n := strings.Count(readFile(t, s.Path()), `"type":"session"`); n != 1 {
		t.Errorf("header written %d times", n)
	}
}

func TestOpenSessionMergesConsecutiveTurnsOfOneRole(t *testing.T) {
	root := t.TempDir()
	s := NewSession(root)
	for _, m := range []llm.Message{
		{Role: llm.User, Text: "q"},
		{Role: llm.Assistant, Text: "<tool_call name=\"x\"/>"},
		{Role: llm.User, Text: "<tool_response/>"},
	} {
		if err := s.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	// The run stopped at the limit; the next prompt follows the responses.
	if err := s.Append(llm.Message{Role: llm.User, Text: "go on"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	r, err := OpenSession(root, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	msgs := r.Messages()
	if len(msgs) != 3 || msgs[2].Text != "<tool_response/>\n\ngo on" {
		t.Errorf("messages = %+v, want the two user turns merged", msgs)
	}
}

func TestOpenSessionDropsATornLastLineAndRepairsTheFile(t *testing.T) {
	root := t.TempDir()
	s := NewSession(root)
	if err := s.Append(llm.Message{Role: llm.User, Text: "q"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	// A crash in the middle of writing the reply.
	f, err := os.OpenFile(s.Path(), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"message","role":"assistant","text":"half`)
	f.Close()

	r, err := OpenSession(root, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Messages()) != 1 {
		t.Errorf("messages = %+v, want the torn one dropped", r.Messages())
	}
	if err := r.Append(llm.Message{Role: llm.Assistant, Text: "whole"}); err != nil {
		t.Fatal(err)
	}
	r.Close()
	lines := readJSONL(t, s.Path()) // fails on any invalid line
	if len(lines) != 3 || lines[2]["text"] != "whole" {
		t.Errorf("lines = %v", lines)
	}
}

func TestOpenSessionErrors(t *testing.T) {
	root := t.TempDir()
	for _, id := range []string{"missing", "../../etc/passwd", "", "a/b"} {
		if _, err := OpenSession(root, id); !errors.Is(err, ErrNoSession) {
			t.Errorf("OpenSession(%q) = %v, want ErrNoSession", id, err)
		}
	}
	if _, err := LastSession(root); !errors.Is(err, ErrNoSession) {
		t.Errorf("LastSession of a new project = %v, want ErrNoSession", err)
	}
	dir := filepath.Join(root, SessionDir)
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "bad.jsonl"), []byte("{\"type\":\"session\"}\nnot json\n{}\n"), 0o600)
	if _, err := OpenSession(root, "bad"); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("OpenSession of a corrupt log = %v, want an error naming line 2", err)
	}
}

func TestLastSessionPicksTheMostRecentlyWritten(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, SessionDir)
	os.MkdirAll(dir, 0o700)
	old := time.Now().Add(-time.Hour)
	for i, id := range []string{"20250101-000000-aaaa", "20240101-000000-bbbb", "20250201-000000-cccc"} {
		p := filepath.Join(dir, id+".jsonl")
		os.WriteFile(p, []byte("{}\n"), 0o600)
		mt := old
		if i == 1 { // the oldest id was resumed most recently
			mt = time.Now()
		}
		os.Chtimes(p, mt, mt)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o600)
	if id, err := LastSession(root); err != nil || id != "20240101-000000-bbbb" {
		t.Errorf("LastSession = %q, %v", id, err)
	}
}

func TestNoSessionFileUntilTheFirstMessage(t *testing.T) {
	root := t.TempDir()
	s := NewSession(root)
	if _, err := os.Stat(s.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("session file exists before any message: %v", err)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSessionKeepsItsSystemPrompt(t *testing.T) {
	root := t.TempDir()
	s := NewSession(root)
	s.SetSystem("You are a test.", "catalog-1")
	if err := s.Append(llm.Message{Role: llm.User, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	s.SetSystem("You are a test.", "catalog-1") // unchanged: not written again
	if err := s.Append(llm.Message{Role: llm.Assistant, Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	b, _ := os.ReadFile(s.Path())
	if n := strings.Count(string(b), `"type":"system"`); n != 1 {
		t.Errorf("the log holds %d system records, want 1:\n%s", n, b)
	}
	r, err := OpenSession(root, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p, k := r.System(); p != "You are a test." || k != "catalog-1" {
		t.Errorf("resumed System() = %q, %q", p, k)
	}
}

// A cloned repository's session log linked elsewhere is neither read by
// --continue nor appended to.
func TestSessionRefusesALinkedLog(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "bashrc")
	if err := os.WriteFile(outside, []byte("export PS1=x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, SessionDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	id := newSessionID(time.Now())
	if err := os.Symlink(outside, filepath.Join(dir, id+".jsonl")); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenSession(root, id); err == nil || !strings.Contains(err.Error(), "is a symlink") {
		t.Errorf("OpenSession err = %v, want a symlink refusal", err)
	}
	s := NewSession(root)
	s.ID = id
	if err := s.Append(llm.Message{Role: llm.User, Text: "$(touch pwned)"}); err == nil || !strings.Contains(err.Error(), "is a symlink") {
		t.Errorf("Append err = %v, want a symlink refusal", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "export PS1=x\n" {
		t.Errorf("the linked file became %q", b)
	}
}

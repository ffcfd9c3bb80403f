package agent

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm"
)

func TestListSessions(t *testing.T) {
	root := t.TempDir()
	if list, err := ListSessions(root); err != nil || len(list) != 0 {
		t.Fatalf("ListSessions of a new project = %v, %v; want none", list, err)
	}
	s := NewSession(root)
	for _, m := range []llm.Message{
		{Role: llm.User, Text: "  first question\n"},
		{Role: llm.Assistant, Text: "a call"},
		{Role: llm.User, Text: "<tool_response>…</tool_response>"},
		{Role: llm.Assistant, Text: "an answer"},
		{Role: llm.User, Text: "second question"},
	} {
		if err := s.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	os.WriteFile(filepath.Join(root, SessionDir, "not a session!.jsonl"), []byte("x"), 0o644)
	list, err := ListSessions(root)
	if err != nil || len(list) != 1 {
		t.Fatalf("ListSessions = %+v, %v; want the one session", list, err)
	}
	if got := list[0]; got.ID != s.ID || got.FirstPrompt != "first question" || got.Turns != 2 {
		t.Errorf("session = %+v, want id %s, its first prompt and 2 turns (the tool response is none)", got, s.ID)
	}
}

func TestRecordUndoInKeepsTheLogsTime(t *testing.T) {
	root := t.TempDir()
	s := NewSession(root)
	if err := s.Append(llm.Message{Role: llm.User, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(s.Path(), old, old)
	told, err := RecordUndoIn(root, s.ID, "undo", "run1", []string{"a.txt"})
	if err != nil || !told {
		t.Fatalf("RecordUndoIn = %v, %v", told, err)
	}
	if fi, _ := os.Stat(s.Path()); !fi.ModTime().Equal(old) {
		t.Errorf("the log's time became %v, want %v kept", fi.ModTime(), old)
	}
	back, err := OpenSession(root, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if note, files := back.TakeNotes(); note == "" || len(files) != 1 {
		t.Errorf("the resumed session's notes = %q, %v; want the undo told", note, files)
	}
	for _, c := range []struct {
		id    string
		files []string
	}{{"", []string{"a"}}, {s.ID, nil}, {"20990101-000000-00000000", []string{"a"}}} {
		if told, err := RecordUndoIn(root, c.id, "undo", "r", c.files); told || err != nil {
			t.Errorf("RecordUndoIn(%q, %v) = %v, %v; want nothing recorded", c.id, c.files, told, err)
		}
	}
}

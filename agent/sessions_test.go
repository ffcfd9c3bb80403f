package agent

import (
	"os"
	"path/filepath"
	"testing"

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

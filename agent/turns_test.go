package agent

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm"
)

func turn(t *testing.T, s *Session, text, answer string) Turn {
	t.Helper()
	tn, err := s.BeginTurn(text)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []llm.Message{{Role: llm.User, Text: text}, {Role: llm.Assistant, Text: answer}} {
		if err := s.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	return tn
}

// A rewind drops the turn and what followed from the conversation; the
// log records it, so the reopened session is rewound too.
func TestSessionRewind(t *testing.T) {
	root := t.TempDir()
	s := NewSession(root)
	t1 := turn(t, s, "one", "A1")
	t2 := turn(t, s, "two", "A2")
	turn(t, s, "three", "A3")
	if t1.Run != s.ID+".r1" || t2.N != 2 || len(s.Turns()) != 3 {
		t.Fatalf("turns = %+v", s.Turns())
	}
	got, err := s.Rewind(t2.Run, []string{"a.txt"})
	if err != nil || got.Text != "two" {
		t.Fatalf("Rewind = %+v, %v", got, err)
	}
	if m := s.Messages(); len(m) != 2 || m[1].Text != "A1" || len(s.Turns()) != 1 {
		t.Fatalf("after rewind: %+v, %d turns", m, len(s.Turns()))
	}
	// The rewind's files are excluded from the change note, with no note.
	if note, files := s.TakeNotes(); note != "" || len(files) != 1 {
		t.Errorf("TakeNotes after rewind = %q %v", note, files)
	}
	t4 := turn(t, s, "four", "A4")
	if t4.N != 4 || t4.Run == t2.Run {
		t.Errorf("turn after the rewind = %+v: run ids must stay unique", t4)
	}
	s.Close()

	r, err := OpenSession(root, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range r.Messages() {
		texts = append(texts, m.Text)
	}
	if strings.Join(texts, "|") != "one|A1|four|A4" {
		t.Errorf("reopened conversation = %q", texts)
	}
	if ts := r.Turns(); len(ts) != 2 || ts[1].Run != t4.Run {
		t.Errorf("reopened turns = %+v", ts)
	}
	if n, _ := r.TakeNotes(); n != "" {
		t.Errorf("a delivered rewind left a note: %q", n)
	}
	if tn, _ := r.BeginTurn("five"); tn.N != 5 {
		t.Errorf("next turn number after reopening = %d, want 5", tn.N)
	}
}

// An undo recorded in the log is told at the next turn, also after a
// reopen, and only once.
func TestSessionUndoNote(t *testing.T) {
	root := t.TempDir()
	s := NewSession(root)
	t1 := turn(t, s, "make it upper case", "Done.")
	if err := s.RecordUndo("undo", t1.Run, []string{"a.txt", "dir/b.txt"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	r, err := OpenSession(root, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	note, files := r.TakeNotes()
	if !strings.Contains(note, `undid your edits of turn 1 ("make it upper case"): a.txt, dir/b.txt`) || strings.Contains(note, "\n") || len(files) != 2 {
		t.Fatalf("note = %q files %v", note, files)
	}
	if again, _ := r.TakeNotes(); again != "" {
		t.Errorf("note given twice: %q", again)
	}
	// Once a user message follows in the log, a reopen has nothing to tell.
	turn(t, r, note+"\n\nnext", "ok")
	r.Close()
	r2, err := OpenSession(root, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := r2.TakeNotes(); n != "" {
		t.Errorf("delivered note pending again: %q", n)
	}
}

// An undo and a redo of the same run, neither told yet, cancel out.
func TestSessionUndoRedoCancel(t *testing.T) {
	s := NewSession(t.TempDir())
	t1 := turn(t, s, "one", "ok")
	t2 := turn(t, s, "two", "ok")
	for _, step := range []struct{ kind, run string }{{"undo", t2.Run}, {"undo", t1.Run}, {"redo", t1.Run}} {
		if err := s.RecordUndo(step.kind, step.run, []string{"f-" + step.run}); err != nil {
			t.Fatal(err)
		}
	}
	note, files := s.TakeNotes()
	if strings.Count(note, "[") != 1 || !strings.Contains(note, "turn 2") || len(files) != 3 {
		t.Errorf("note = %q, files %v; want only turn 2's undo, all three files", note, files)
	}
}

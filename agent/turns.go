package agent

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentcli/agent/tools"
)

// Turn is one user message of a conversation: what the user typed and
// the run its writes are recorded under (see sandbox.WithRun), so that
// undo can revert a turn and a rewind can take the files and the
// conversation back to before it.
type Turn struct {
	// N numbers the turn in the session, from 1.
	N int
	// Run is the run id of its writes: the session id and N.
	Run  string
	Text string
	Time time.Time
	// msgs, lastLen and lastImgs are the conversation's length before
	// the turn: the number of messages, and the length of the last one's
	// text and its number of images (a message merges into the one
	// before when the roles repeat).
	msgs, lastLen, lastImgs int
	// todos is the model's plan before the turn, which a rewind to it
	// brings back.
	todos []tools.Todo
}

// pendingNote is an undo or redo (or a rewind) the model has not been
// told of yet.
type pendingNote struct {
	run   string
	note  string // "" for a rewind: the model never saw those turns
	files []string
}

// BeginTurn records that a user message with text starts now and
// returns its turn; the caller tags the turn's writes with Turn.Run.
// Call it just before Agent.Run.
func (s *Session) BeginTurn(text string) (Turn, error) {
	if err := s.open(); err != nil {
		return Turn{}, err
	}
	t := s.newTurn(s.ID+".r"+strconv.Itoa(s.turnCount+1), text, s.now().UTC())
	if err := s.write(record{Type: "turn", Time: t.Time, Run: t.Run, Text: text}); err != nil {
		return Turn{}, err
	}
	s.turnCount++
	s.turns = append(s.turns, t)
	return t, nil
}

func (s *Session) newTurn(run, text string, at time.Time) Turn {
	t := Turn{N: s.turnCount + 1, Run: run, Text: text, Time: at, msgs: len(s.msgs), todos: s.todos}
	if n := len(s.msgs); n > 0 {
		t.lastLen, t.lastImgs = len(s.msgs[n-1].Text), len(s.msgs[n-1].Images)
	}
	return t
}

// Turns returns the turns that can be rewound to, oldest first (those
// since the last compaction or rewind).
func (s *Session) Turns() []Turn { return slices.Clone(s.turns) }

// Turn returns the turn whose writes are recorded as run.
func (s *Session) Turn(run string) (Turn, bool) {
	for _, t := range s.turns {
		if t.Run == run {
			return t, true
		}
	}
	return Turn{}, false
}

// Rewind takes the conversation back to before the turn of run: its
// messages and every later one are dropped from what the model is sent.
// The log keeps them and records the rewind, so a resumed session
// starts from the rewound state. files are what the rewind's undo
// changed: the model is not told of them (it never saw those turns), and
// they are not reported as changed by someone else either.
func (s *Session) Rewind(run string, files []string) (Turn, error) {
	i := slices.IndexFunc(s.turns, func(t Turn) bool { return t.Run == run })
	if i < 0 {
		return Turn{}, fmt.Errorf("no turn %s to rewind to in this conversation", run)
	}
	if err := s.open(); err != nil {
		return Turn{}, err
	}
	now := s.now().UTC()
	if err := s.write(record{Type: "rewind", Time: now, Run: run, Files: files}); err != nil {
		return Turn{}, err
	}
	s.rewoundAt = now
	t := s.turns[i]
	s.rewind(i)
	s.pending = append(s.pending, pendingNote{run: run, files: files})
	return t, nil
}

func (s *Session) rewind(i int) {
	t := s.turns[i]
	gone := s.turns[i:]
	s.pending = slices.DeleteFunc(s.pending, func(p pendingNote) bool {
		return slices.ContainsFunc(gone, func(g Turn) bool { return g.Run == p.run })
	})
	s.turns = s.turns[:i]
	s.todos = t.todos
	if t.msgs <= len(s.msgs) {
		s.msgs = s.msgs[:t.msgs]
		if n := len(s.msgs); n > 0 && t.lastLen <= len(s.msgs[n-1].Text) {
			s.msgs[n-1].Text = s.msgs[n-1].Text[:t.lastLen]
			s.msgs[n-1].Images = s.msgs[n-1].Images[:min(t.lastImgs, len(s.msgs[n-1].Images))]
		}
	}
}

// RecordUndo records that the user undid ("undo") or redid ("redo") the
// writes of run, changing files. The model is told at its next turn (see
// TakeNotes), in this process or in a resumed one.
func (s *Session) RecordUndo(kind, run string, files []string) error {
	if kind != "undo" && kind != "redo" {
		return fmt.Errorf("RecordUndo: unknown kind %q", kind)
	}
	if err := s.open(); err != nil {
		return err
	}
	if err := s.write(record{Type: kind, Time: s.now().UTC(), Run: run, Files: files}); err != nil {
		return err
	}
	s.noteUndo(kind, run, files)
	return nil
}

// noteUndo adds the pending note of an undo or redo. An undo and a redo
// of the same run, both untold, cancel out: the model's picture of its
// edits is right again, so it is told neither (the files stay out of the
// change watcher's note all the same).
func (s *Session) noteUndo(kind, run string, files []string) {
	i := slices.IndexFunc(s.pending, func(p pendingNote) bool { return p.run == run && p.note != "" })
	if i >= 0 {
		s.pending[i].note = ""
		s.pending[i].files = append(s.pending[i].files, files...)
		return
	}
	s.pending = append(s.pending, pendingNote{run: run, note: s.undoNote(kind, run, files), files: files})
}

// TakeNotes returns what the model has to be told of undos and redos
// since its last turn, one line each ("" when none), and the files they
// changed, which a change watcher must not report again as changed by
// someone else. The notes are given once.
func (s *Session) TakeNotes() (note string, files []string) {
	var lines []string
	for _, p := range s.pending {
		if p.note != "" {
			lines = append(lines, p.note)
		}
		files = append(files, p.files...)
	}
	s.pending = nil
	return strings.Join(lines, "\n"), files
}

// RewoundSince reports whether the conversation was rewound after t. A
// rewind is like a new write: what was undone before it (the rewound
// turns' runs among them) can no longer be redone, for the conversation
// no longer has those turns.
func (s *Session) RewoundSince(t time.Time) bool {
	return !s.rewoundAt.IsZero() && !s.rewoundAt.Before(t)
}

// replayTurn applies a "turn", "rewind", "undo" or "redo" line of the log.
func (s *Session) replayTurn(r record) {
	switch r.Type {
	case "turn":
		s.turns = append(s.turns, s.newTurn(r.Run, r.Text, r.Time))
		s.turnCount++
	case "rewind":
		s.rewoundAt = r.Time
		if i := slices.IndexFunc(s.turns, func(t Turn) bool { return t.Run == r.Run }); i >= 0 {
			s.rewind(i)
		}
	default:
		s.noteUndo(r.Type, r.Run, r.Files)
	}
}

// undoNote is the one line that tells the model of an undo or redo.
func (s *Session) undoNote(kind, run string, files []string) string {
	what := "run " + run
	if t, ok := s.Turn(run); ok {
		what = fmt.Sprintf("turn %d (%q)", t.N, FirstLine(t.Text, 40))
	}
	list := strings.Join(files, ", ")
	if len(files) > 5 {
		list = strings.Join(files[:5], ", ") + fmt.Sprintf(" and %d more", len(files)-5)
	}
	are, them := "are", "them"
	if len(files) == 1 {
		are, them = "is", "it"
	}
	if kind == "redo" {
		return fmt.Sprintf("[The user redid your edits of %s: %s %s again as you left %s.]", what, list, are, them)
	}
	return fmt.Sprintf("[The user undid your edits of %s: %s %s back as before that turn. Read a file again before relying on what you saw of it.]", what, list, are)
}

// FirstLine is the first line of s, cut to n runes, with … when
// something was left out: how a turn is named to the model and the user.
func FirstLine(s string, n int) string {
	s, _, cut := strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > n {
		s, cut = string(r[:n]), true
	}
	if cut {
		s += "…"
	}
	return s
}

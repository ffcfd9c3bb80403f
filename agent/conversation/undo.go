package conversation

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/tools/sandbox"
)

// ErrRedoRewound is Redo's answer when what was undone went with turns a
// rewind dropped: a rewind clears what could be redone, as a new write
// does, for the conversation no longer has those turns.
var ErrRedoRewound = errors.New("what was undone went with the turns rewound in the chat")

// Restored is what an undo, a redo or a rewind did.
type Restored struct {
	// Reports are the restores, one per run taken back or put back.
	Reports []sandbox.RestoreReport
	// Turn is the conversation's turn of the run (Undo, Redo) or the
	// turn rewound to (Rewind); zero when the run was not one of this
	// conversation's turns.
	Turn agent.Turn
}

// Undo reverts the project's last run of the agent, and records it so
// that the model is told with the next message. The errors are
// fsedit's: ErrNothingToUndo, a *ConflictError (a file changed since),
// an *UnsignedError (backups not written by this user's agent).
func (c *Conversation) Undo(ctx context.Context) (Restored, error) {
	rep, err := c.root.Undo(ctx, false)
	if err != nil {
		return Restored{}, err
	}
	return c.recordRestore("undo", rep)
}

// Redo puts back the run undone last, unless a rewind of its
// conversation came after the undo (ErrRedoRewound), and records it as
// Undo does.
func (c *Conversation) Redo(ctx context.Context) (Restored, error) {
	rep, err := Redo(ctx, c.root, c.Session(), false)
	if err != nil {
		return Restored{}, err
	}
	return c.recordRestore("redo", rep)
}

// recordRestore tells the session of the restored run (this one, or
// another of the project's) what an undo or redo (kind) changed.
func (c *Conversation) recordRestore(kind string, rep sandbox.RestoreReport) (Restored, error) {
	out := Restored{Reports: []sandbox.RestoreReport{rep}}
	sess := c.Session()
	if files := rep.Changed(); len(files) > 0 {
		var err error
		if rep.Session == sess.ID {
			err = sess.RecordUndo(kind, rep.Run, files)
		} else {
			_, err = RecordRestore(c.dir, kind, rep)
		}
		if err != nil {
			return out, fmt.Errorf("the %s is done, but the conversation could not record it: %w", kind, err)
		}
	}
	out.Turn, _ = sess.Turn(rep.Run)
	return out, nil
}

// Turns are the turns of the conversation that can be rewound to, the
// oldest first.
func (c *Conversation) Turns() []agent.Turn { return c.Session().Turns() }

// Rewind takes the files and the conversation back to before the turn
// whose run is run, together: the writes of that turn and every later
// one are undone, their messages dropped, and what the model read and
// the "always" answers given since are forgotten. Restored.Turn is the
// turn rewound to; its text is the message to edit and send again.
func (c *Conversation) Rewind(ctx context.Context, run string) (Restored, error) {
	sess := c.Session()
	turns := sess.Turns()
	i := slices.IndexFunc(turns, func(t agent.Turn) bool { return t.Run == run })
	if i < 0 {
		return Restored{}, fmt.Errorf("no turn %s in this conversation", run)
	}
	var runs []string
	for _, t := range turns[i:] {
		runs = append(runs, t.Run)
	}
	reps, err := c.root.UndoRuns(ctx, runs, false)
	if err != nil {
		return Restored{}, err
	}
	var files []string
	for _, rep := range reps {
		files = append(files, rep.Changed()...)
	}
	t, err := sess.Rewind(run, files)
	if err != nil {
		return Restored{}, err
	}
	// The model no longer has the reads of the turns taken back, nor
	// the "always" answers given in them.
	c.files.Forget()
	c.approval.ForgetAlways(t.N)
	if err := saveFileState(c.files, c.dir, sess.ID); err != nil {
		return Restored{}, err
	}
	return Restored{Reports: reps, Turn: t}, nil
}

// Redo re-applies the run undone last under root, unless a rewind of its
// conversation came after the undo (ErrRedoRewound). current, when given,
// is the open conversation's session (it may not be on disk yet).
func Redo(ctx context.Context, root *sandbox.Root, current *agent.Session, force bool) (sandbox.RestoreReport, error) {
	if rewound, err := RedoRewound(root, current); err != nil {
		return sandbox.RestoreReport{}, err
	} else if rewound {
		return sandbox.RestoreReport{}, ErrRedoRewound
	}
	return root.Redo(ctx, force)
}

// RedoRewound reports whether what a redo under root would put back was
// undone before its conversation was rewound.
func RedoRewound(root *sandbox.Root, current *agent.Session) (bool, error) {
	_, session, undoneAt, err := root.NextRedo()
	if errors.Is(err, sandbox.ErrNothingToRedo) || err == nil && session == "" {
		return false, nil // Redo says so itself
	}
	if err != nil {
		return false, err
	}
	s := current
	if s == nil || s.ID != session {
		if s, err = agent.OpenSession(root.Dir(), session); errors.Is(err, agent.ErrNoSession) {
			return false, nil
		} else if err != nil {
			return false, err
		}
		defer s.Close()
	}
	return s.RewoundSince(undoneAt), nil
}

// RecordRestore records an undo or redo (kind) in the session the run
// was part of, in the project at dir, so the model hears of it when the
// conversation goes on; told is false when the run was no conversation's
// (agent tool-call). The log's time is kept: an undo does not make an
// older session the one --continue picks.
func RecordRestore(dir, kind string, rep sandbox.RestoreReport) (told bool, err error) {
	if rep.Session == "" || len(rep.Changed()) == 0 {
		return false, nil
	}
	s, err := agent.OpenSession(dir, rep.Session)
	if errors.Is(err, agent.ErrNoSession) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	fi, statErr := os.Stat(s.Path())
	err = s.RecordUndo(kind, rep.Run, rep.Changed())
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err == nil && statErr == nil {
		err = os.Chtimes(s.Path(), time.Time{}, fi.ModTime())
	}
	return err == nil, err
}

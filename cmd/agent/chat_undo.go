package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/tui"
	"github.com/agentcli/agent/tools/fsedit"
)

// undo runs the chat's /undo or /redo (kind): the last run of the project
// is reverted, or the last undone one put back, and the conversation
// records it so the model is told with the next message.
func (b *chatBackend) undo(ctx context.Context, kind string) (tui.Reply, error) {
	root, err := b.d.configuredFileRoot(b.root)
	if err != nil {
		return tui.Reply{}, err
	}
	defer root.Close()
	var rep fsedit.RestoreReport
	if kind == "undo" {
		rep, err = root.Undo(ctx, false)
	} else {
		rep, err = redo(ctx, root, b.a.Session, false)
	}
	var (
		ce *fsedit.ConflictError
		ue *fsedit.UnsignedError
	)
	switch {
	case errors.As(err, &ue):
		return tui.Reply{}, fmt.Errorf("%s; nothing was done (look at that content first; 'agent %s --force' in a shell restores it anyway)", safeText(ue.Error()), kind)
	case errors.Is(err, fsedit.ErrNothingToUndo):
		return tui.Reply{Text: "Nothing to undo: the agent has not written anything in this project yet, or it is all undone."}, nil
	case errors.Is(err, errRedoRewound):
		return tui.Reply{Text: "Nothing to redo: what was undone went with the turns you rewound."}, nil
	case errors.Is(err, fsedit.ErrNothingToRedo):
		return tui.Reply{Text: "Nothing to redo (a new write by the agent clears what was undone)."}, nil
	case errors.As(err, &ce):
		return tui.Reply{}, fmt.Errorf("%s changed since the agent wrote it; nothing was done ('agent %s --force' does it anyway, backing the current content up first)", strings.Join(ce.Paths, ", "), kind)
	case err != nil:
		return tui.Reply{}, err
	}
	if files := rep.Changed(); len(files) > 0 {
		if rep.Session == b.a.Session.ID {
			err = b.a.Session.RecordUndo(kind, rep.Run, files)
		} else {
			_, err = noteInSession(b.root, kind, rep)
		}
		if err != nil {
			return tui.Reply{}, fmt.Errorf("the %s is done, but the conversation could not record it: %w", kind, err)
		}
	}
	what := "run `" + rep.Run + "`"
	if t, ok := b.a.Session.Turn(rep.Run); ok {
		what = fmt.Sprintf("turn %d", t.N)
	}
	verb := map[string]string{"undo": "Undid", "redo": "Redid"}[kind]
	return tui.Reply{Text: fmt.Sprintf("%s %s:\n\n%s\nThe model is told with your next message.", verb, what, fileLines(rep))}, nil
}

// fileLines lists what a restore did, one markdown item a line.
func fileLines(reps ...fsedit.RestoreReport) string {
	var sb strings.Builder
	for _, rep := range reps {
		for _, f := range rep.Files {
			fmt.Fprintf(&sb, "- %s `%s`\n", f.Action, f.Path)
		}
		for _, d := range rep.FoldersRemoved {
			fmt.Fprintf(&sb, "- removed folder `%s/`\n", d)
		}
		for _, d := range rep.FoldersMade {
			fmt.Fprintf(&sb, "- made folder `%s/`\n", d)
		}
	}
	return sb.String()
}

// rewind is the chat's /rewind: with no run, the turns to choose from;
// with one, the files and the conversation go back to before that turn
// together, and the turn's message comes back for editing.
func (b *chatBackend) rewind(ctx context.Context, run string) (tui.Reply, error) {
	sess := b.a.Session
	turns := sess.Turns()
	if run == "" {
		if len(turns) == 0 {
			return tui.Reply{Text: "No turn to rewind to in this conversation."}, nil
		}
		var choices []tui.Choice
		for _, t := range slices.Backward(turns) {
			choices = append(choices, tui.Choice{Label: fmt.Sprintf("turn %d  %s", t.N, agent.FirstLine(typedText(t.Text), 60)), Value: t.Run})
		}
		return tui.Reply{Choices: choices}, nil
	}
	i := slices.IndexFunc(turns, func(t agent.Turn) bool { return t.Run == run })
	if i < 0 {
		return tui.Reply{}, fmt.Errorf("no turn %s in this conversation", run)
	}
	var runs []string
	for _, t := range turns[i:] {
		runs = append(runs, t.Run)
	}
	root, err := b.d.configuredFileRoot(b.root)
	if err != nil {
		return tui.Reply{}, err
	}
	defer root.Close()
	reps, err := root.UndoRuns(ctx, runs, false)
	var (
		ce *fsedit.ConflictError
		ue *fsedit.UnsignedError
	)
	if errors.As(err, &ue) {
		return tui.Reply{}, fmt.Errorf("%s; nothing was rewound ('agent undo --force' in a shell restores it anyway, after you looked at that content)", safeText(ue.Error()))
	}
	if errors.As(err, &ce) {
		return tui.Reply{}, fmt.Errorf("%s changed since the agent wrote it; nothing was rewound (edit it back, or 'agent undo --force' reverts anyway)", strings.Join(ce.Paths, ", "))
	}
	if err != nil {
		return tui.Reply{}, err
	}
	var files []string
	for _, rep := range reps {
		files = append(files, rep.Changed()...)
	}
	t, err := sess.Rewind(run, files)
	if err != nil {
		return tui.Reply{}, err
	}
	// The model no longer has the reads of the turns taken back.
	b.conv.files.Forget()
	if err := saveFileState(b.conv.files, b.root, sess.ID); err != nil {
		return tui.Reply{}, err
	}
	text := fmt.Sprintf("Rewound to before turn %d: the conversation goes on from there.", t.N)
	if len(files) > 0 {
		text += "\n\n" + fileLines(reps...)
	} else {
		text += " No file needed changing."
	}
	return tui.Reply{Text: text, Input: typedText(t.Text), Cleared: true}, nil
}

// typedText is a message without the files the chat attached to it
// (@path), as the user typed it.
func typedText(s string) string {
	if i := strings.Index(s, "\n\n<file path=\""); i >= 0 {
		s = s[:i]
	}
	return s
}

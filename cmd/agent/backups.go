package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/tools/fsedit"
	"github.com/agentcli/agent/tools/fsedit/backup"
)

func newBackupsCmd(d *factory) *cobra.Command {
	var (
		dir    string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "backups",
		Short: "List the change sets the agent wrote (each can be restored)",
		Long: `backups lists the change sets recorded under .agent/backups, oldest first:
a change set is everything one model reply wrote (or one undo, redo or
restore put back).
Each shows its id, when it was written and the files it touched.

'agent undo' reverts the last run (everything the agent wrote for one
message: one or more change sets), 'agent redo' puts it back; 'agent
backups restore ID' reverts any one change set (an id prefix is enough).
Each is recorded as a change set of its own, with backups, so nothing is
lost.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := d.configuredFileRoot(dir)
			if err != nil {
				return err
			}
			if asJSON {
				st, err := root.Backups()
				if err != nil {
					return err
				}
				sets, err := st.List()
				if err != nil {
					return err
				}
				return printBackupsJSON(d, sets)
			}
			return printChangeSets(d, root)
		},
	}
	cmd.PersistentFlags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the change sets and their entries as JSON")
	cmd.AddCommand(newRestoreCmd(d, &dir))
	return cmd
}

func newRestoreCmd(d *factory, dir *string) *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "restore ID",
		Short: "Put the files of a change set back as they were before it",
		Long: `restore reverts change set ID (or a unique prefix of it): every file it
wrote gets back the content it had before, and a file it created is
removed. If a file changed after the change set wrote it, nothing is done
unless --force is given. The current content is backed up first.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := d.configuredFileRoot(*dir)
			if err != nil {
				return err
			}
			if len(args) == 0 {
				// Without an id, show what there is to choose from.
				if err := printChangeSets(d, root); err != nil {
					return err
				}
				fmt.Fprintln(d.io.ErrOut, "usage: agent backups restore ID (an id from the list above, or a unique prefix)")
				return exitError{code: exitUsage}
			}
			rep, err := root.Restore(cmd.Context(), args[0], force)
			if err == nil {
				upgradeStateDir(d, root.Dir())
			}
			return reportRestore(d, rep, err)
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "restore even files changed since the change set wrote them")
	return cmd
}

func newUndoCmd(d *factory) *cobra.Command {
	var (
		dir   string
		force bool
	)
	cmd := &cobra.Command{
		Use:   "undo",
		Short: "Revert everything the agent wrote for the last message",
		Long: `undo reverts the last run: everything the agent wrote for one message (all
the model's replies to it) gets back its earlier content, files it created
are removed, and so are folders it created that are left empty. Run it
again to revert the run before; 'agent redo' puts an undone run back.

If a file changed after the agent wrote it (you edited it), nothing is done
unless --force is given; the current content is backed up first either way.
The conversation records the undo: continued with --continue, the model is
told which of its edits were reverted.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := d.configuredFileRoot(dir)
			if err != nil {
				return err
			}
			defer root.Close()
			rep, err := root.Undo(cmd.Context(), force)
			if errors.Is(err, fsedit.ErrNothingToUndo) {
				fmt.Fprintln(d.io.Out, "nothing to undo: the agent has not written anything in this project yet, or it is all undone")
				return nil
			}
			return reportRun(d, root, "undo", rep, err)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	cmd.Flags().BoolVar(&force, "force", false, "revert even files changed since the agent wrote them")
	return cmd
}

func newRedoCmd(d *factory) *cobra.Command {
	var (
		dir   string
		force bool
	)
	cmd := &cobra.Command{
		Use:   "redo",
		Short: "Put back what the last 'agent undo' reverted",
		Long: `redo re-applies the run undone most recently, with the folders it made;
run it again for the one undone before. Once the agent writes something
new, what was undone can no longer be redone ('agent backups' still lists
it, and 'agent backups restore' can bring back any change set).

If a file changed since the undo, nothing is done unless --force is given;
the current content is backed up first either way.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := d.configuredFileRoot(dir)
			if err != nil {
				return err
			}
			defer root.Close()
			rep, err := redo(cmd.Context(), root, nil, force)
			switch {
			case errors.Is(err, errRedoRewound):
				fmt.Fprintf(d.io.Out, "nothing to redo: %v\n", err)
				return nil
			case errors.Is(err, fsedit.ErrNothingToRedo):
				fmt.Fprintln(d.io.Out, "nothing to redo: no undo to take back (a new write by the agent clears them)")
				return nil
			}
			return reportRun(d, root, "redo", rep, err)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	cmd.Flags().BoolVar(&force, "force", false, "redo even over files changed since the undo")
	return cmd
}

// reportRun prints what an undo or redo (kind) of a run did and records
// it in the run's session, so the model is told at its next turn.
func reportRun(d *factory, root *fsedit.Root, kind string, rep fsedit.RestoreReport, err error) error {
	var (
		ce *fsedit.ConflictError
		ue *fsedit.UnsignedError
	)
	if errors.As(err, &ue) {
		return fmt.Errorf("%s; nothing was done (look at that content first; 'agent %s --force' restores it anyway)", safeText(ue.Error()), kind)
	}
	if errors.As(err, &ce) {
		return fmt.Errorf("%s changed since the agent's run %s; nothing was done (use --force to %s anyway: the current content is backed up first)", strings.Join(ce.Paths, ", "), ce.Run, kind)
	}
	if err != nil {
		return err
	}
	upgradeStateDir(d, root.Dir())
	printFiles(d, rep)
	if kind == "undo" {
		fmt.Fprintf(d.io.Out, "undid run %s; 'agent redo' puts it back, 'agent undo' goes one run further back\n", rep.Run)
	} else {
		fmt.Fprintf(d.io.Out, "redid run %s; 'agent undo' reverts it again\n", rep.Run)
	}
	told, err := noteInSession(root.Dir(), kind, rep)
	switch {
	case err != nil:
		fmt.Fprintf(d.io.ErrOut, "agent: the %s is done, but the conversation could not record it: %v\n", kind, err)
	case told:
		fmt.Fprintf(d.io.Out, "the model is told when session %s goes on (--continue)\n", rep.Session)
	}
	return nil
}

func printFiles(d *factory, rep fsedit.RestoreReport) {
	for _, f := range rep.Files {
		fmt.Fprintf(d.io.Out, "  %-9s %s\n", f.Action, safeText(f.Path))
	}
	for _, dir := range rep.FoldersRemoved {
		fmt.Fprintf(d.io.Out, "  %-9s %s/\n", "removed", safeText(dir))
	}
	for _, dir := range rep.FoldersMade {
		fmt.Fprintf(d.io.Out, "  %-9s %s/\n", "made", safeText(dir))
	}
}

// noteInSession records an undo or redo in the session the run was part
// of, so the model hears of it when the conversation goes on. The log's
// time is kept: an undo does not make an older session the one
// --continue picks.
// errRedoRewound is redo's answer when what was undone went with turns a
// rewind dropped: a rewind clears what could be redone, as a new write
// does, for the conversation no longer has those turns.
var errRedoRewound = errors.New("what was undone went with the turns rewound in the chat")

// redo re-applies the run undone last, unless a rewind of its
// conversation came after the undo. current, when given, is the open
// conversation's session (it may not be on disk yet).
func redo(ctx context.Context, root *fsedit.Root, current *agent.Session, force bool) (fsedit.RestoreReport, error) {
	if rewound, err := redoRewound(root.Dir(), root, current); err != nil {
		return fsedit.RestoreReport{}, err
	} else if rewound {
		return fsedit.RestoreReport{}, errRedoRewound
	}
	return root.Redo(ctx, force)
}

// redoRewound reports whether what a redo would put back was undone
// before its conversation was rewound.
func redoRewound(dir string, root *fsedit.Root, current *agent.Session) (bool, error) {
	_, session, undoneAt, err := root.NextRedo()
	if errors.Is(err, fsedit.ErrNothingToRedo) || err == nil && session == "" {
		return false, nil // Redo says so itself
	}
	if err != nil {
		return false, err
	}
	s := current
	if s == nil || s.ID != session {
		if s, err = agent.OpenSession(dir, session); errors.Is(err, agent.ErrNoSession) {
			return false, nil
		} else if err != nil {
			return false, err
		}
		defer s.Close()
	}
	return s.RewoundSince(undoneAt), nil
}

func noteInSession(dir, kind string, rep fsedit.RestoreReport) (told bool, err error) {
	if rep.Session == "" || len(rep.Changed()) == 0 {
		return false, nil
	}
	s, err := agent.OpenSession(dir, rep.Session)
	if errors.Is(err, agent.ErrNoSession) {
		return false, nil // a write from outside a conversation (agent tool-call)
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

// reportRestore prints what a restore of one change set did, or turns its
// error into words for the user.
func reportRestore(d *factory, rep fsedit.RestoreReport, err error) error {
	var (
		ce *fsedit.ConflictError
		ue *fsedit.UnsignedError
	)
	switch {
	case errors.As(err, &ue):
		return errors.New(safeText(ue.Error()) + "; nothing was restored (look at that content first; --force restores it anyway)")
	case errors.As(err, &ce):
		return fmt.Errorf("%s changed after change set %s wrote it; nothing was restored (use --force to restore anyway: the current content is backed up first)", strings.Join(ce.Paths, ", "), ce.ChangeSet)
	case errors.Is(err, backup.ErrNotFound), errors.Is(err, backup.ErrAmbiguous):
		return usageErrorf("%v; 'agent backups' lists the change sets", err)
	case err != nil:
		return err
	}
	printFiles(d, rep)
	if len(rep.Changed()) == 0 {
		fmt.Fprintf(d.io.Out, "change set %s: the files already are as they were before it\n", rep.ChangeSet)
		return nil
	}
	fmt.Fprintf(d.io.Out, "reverted change set %s; recorded as %s ('agent backups restore %s' puts the changes back)\n", rep.ChangeSet, rep.Recorded, rep.Recorded)
	return nil
}

func printBackupsJSON(d *factory, sets []backup.ChangeSet) error {
	type jsonSet struct {
		ID      string    `json:"id"`
		Time    time.Time `json:"time"`
		Session string    `json:"session,omitempty"`
		Run     string    `json:"run,omitempty"`
		Undoes  string    `json:"undoes,omitempty"`
		UndoRun string    `json:"undo_run,omitempty"`
		RedoRun string    `json:"redo_run,omitempty"`
		Files   []string  `json:"files"`
		Size    int64     `json:"backup_bytes"`
		// Signed: every entry carries this user's signature (undo
		// restores only such change sets without --force).
		Signed  bool           `json:"signed"`
		Entries []backup.Entry `json:"entries"`
	}
	out := make([]jsonSet, len(sets))
	for i, c := range sets {
		out[i] = jsonSet{ID: c.ID, Time: c.Time, Session: c.Session, Run: c.Run, Undoes: c.Undoes, UndoRun: c.UndoRun, RedoRun: c.RedoRun, Files: c.Files(), Size: c.Size(), Signed: c.Verified(), Entries: c.Entries}
	}
	enc := json.NewEncoder(d.io.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// summarizeFiles lists up to n paths and counts the rest.
func summarizeFiles(files []string, n int) string {
	if len(files) <= n {
		return strings.Join(files, ", ")
	}
	return fmt.Sprintf("%s (+%d more)", strings.Join(files[:n], ", "), len(files)-n)
}

// printChangeSets prints the project's change sets as a table, oldest
// first.
func printChangeSets(d *factory, root *fsedit.Root) error {
	st, err := root.Backups()
	if err != nil {
		return err
	}
	sets, err := st.List()
	if err != nil {
		return err
	}
	if len(sets) == 0 {
		fmt.Fprintln(d.io.Out, "no backups yet")
		return nil
	}
	tw := tabwriter.NewWriter(d.io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTIME\tFILES")
	for _, c := range sets {
		files := summarizeFiles(c.Files(), 3)
		switch {
		case c.UndoRun != "":
			files += " (undo of run " + c.UndoRun + ")"
		case c.RedoRun != "":
			files += " (redo of run " + c.RedoRun + ")"
		case c.Undoes != "":
			files += " (restore of " + c.Undoes + ")"
		}
		if !c.Verified() {
			files += " (not signed by your agent: restored only with --force)"
		}
		// The manifest is project state, anyone's text: shown, not obeyed.
		fmt.Fprintf(tw, "%s\t%s\t%s\n", safeText(c.ID), c.Time.Local().Format("2006-01-02 15:04:05"), safeText(files))
	}
	return tw.Flush()
}

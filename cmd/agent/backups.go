package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/tools/sandbox"
	"github.com/agentcli/agent/tools/sandbox/backup"
	"github.com/agentcli/agent/tools/sandbox/backupview"
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
			defer root.Close()
			if asJSON {
				return backupview.ListJSON(d.io.Out, root)
			}
			return backupview.ChangeSets(d.io.Out, root)
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
			defer root.Close()
			if len(args) == 0 {
				// Without an id, show what there is to choose from.
				if err := backupview.ChangeSets(d.io.Out, root); err != nil {
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
			if errors.Is(err, sandbox.ErrNothingToUndo) {
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
			rep, err := conversation.Redo(cmd.Context(), root, nil, force)
			switch {
			case errors.Is(err, conversation.ErrRedoRewound):
				fmt.Fprintf(d.io.Out, "nothing to redo: %v\n", err)
				return nil
			case errors.Is(err, sandbox.ErrNothingToRedo):
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
func reportRun(d *factory, root *sandbox.Root, kind string, rep sandbox.RestoreReport, err error) error {
	var (
		ce *sandbox.ConflictError
		ue *sandbox.UnsignedError
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
	backupview.RunRestored(d.io.Out, kind, rep)
	told, err := conversation.RecordRestore(root.Dir(), kind, rep)
	switch {
	case err != nil:
		fmt.Fprintf(d.io.ErrOut, "agent: the %s is done, but the conversation could not record it: %v\n", kind, err)
	case told:
		fmt.Fprintf(d.io.Out, "the model is told when session %s goes on (--continue)\n", rep.Session)
	}
	return nil
}

// reportRestore prints what a restore of one change set did, or turns its
// error into words for the user.
func reportRestore(d *factory, rep sandbox.RestoreReport, err error) error {
	var (
		ce *sandbox.ConflictError
		ue *sandbox.UnsignedError
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
	backupview.Restored(d.io.Out, rep)
	return nil
}

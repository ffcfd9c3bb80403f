package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

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
a change set is everything one model reply wrote (or one undo restored).
Each shows its id, when it was written and the files it touched.

'agent undo' reverts the last change set; 'agent backups restore ID' reverts
any of them (an id prefix is enough). Both are recorded as change sets of
their own, so they can be undone in turn.`,
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
		Short: "Revert everything the last model reply wrote",
		Long: `undo reverts the last change set: the files the last model reply wrote get
back their earlier content, and files it created are removed. The undo is
itself recorded, so a second 'agent undo' puts the changes back.

If a file changed after the reply wrote it (you edited it), nothing is done
unless --force is given; the current content is backed up first either way.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := d.configuredFileRoot(dir)
			if err != nil {
				return err
			}
			rep, err := root.Undo(cmd.Context(), force)
			if errors.Is(err, fsedit.ErrNothingToUndo) {
				fmt.Fprintln(d.io.Out, "nothing to undo: the agent has not written anything in this project yet")
				return nil
			}
			return reportRestore(d, rep, err)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	cmd.Flags().BoolVar(&force, "force", false, "revert even files changed since the reply wrote them")
	return cmd
}

// reportRestore prints what an undo or restore did, or turns its error
// into words for the user.
func reportRestore(d *factory, rep fsedit.RestoreReport, err error) error {
	var ce *fsedit.ConflictError
	switch {
	case errors.As(err, &ce):
		return fmt.Errorf("%s changed after change set %s wrote it; nothing was restored (use --force to restore anyway: the current content is backed up first)", strings.Join(ce.Paths, ", "), ce.ChangeSet)
	case errors.Is(err, backup.ErrNotFound):
		return usageErrorf("%v; 'agent backups' lists the change sets", err)
	case err != nil:
		return err
	}
	changed := 0
	for _, f := range rep.Files {
		fmt.Fprintf(d.io.Out, "  %-9s %s\n", f.Action, f.Path)
		if f.Action != "unchanged" {
			changed++
		}
	}
	if changed == 0 {
		fmt.Fprintf(d.io.Out, "change set %s: the files already are as they were before it\n", rep.ChangeSet)
		return nil
	}
	fmt.Fprintf(d.io.Out, "reverted change set %s; recorded as %s ('agent undo' puts the changes back)\n", rep.ChangeSet, rep.Recorded)
	return nil
}

func printBackupsJSON(d *factory, sets []backup.ChangeSet) error {
	type jsonSet struct {
		ID      string         `json:"id"`
		Time    time.Time      `json:"time"`
		Session string         `json:"session,omitempty"`
		Undoes  string         `json:"undoes,omitempty"`
		Files   []string       `json:"files"`
		Size    int64          `json:"backup_bytes"`
		Entries []backup.Entry `json:"entries"`
	}
	out := make([]jsonSet, len(sets))
	for i, c := range sets {
		out[i] = jsonSet{ID: c.ID, Time: c.Time, Session: c.Session, Undoes: c.Undoes, Files: c.Files(), Size: c.Size(), Entries: c.Entries}
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
		if c.Undoes != "" {
			files += " (undo of " + c.Undoes + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", c.ID, c.Time.Local().Format("2006-01-02 15:04:05"), files)
	}
	return tw.Flush()
}

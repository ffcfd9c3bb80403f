// Package backupview shows the project's backups to a person: the change
// sets as a table or JSON, and what an undo, a redo or a restore did. The
// manifest is project state, anyone's text: it is shown escaped, never
// obeyed.
package backupview

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools/sandbox"
	"github.com/agentcli/agent/tools/sandbox/backup"
)

// Files prints the files and folders a restore changed, one a line.
func Files(w io.Writer, rep sandbox.RestoreReport) {
	for _, f := range rep.Files {
		fmt.Fprintf(w, "  %-9s %s\n", f.Action, termtext.Escape(f.Path))
	}
	for _, dir := range rep.FoldersRemoved {
		fmt.Fprintf(w, "  %-9s %s/\n", "removed", termtext.Escape(dir))
	}
	for _, dir := range rep.FoldersMade {
		fmt.Fprintf(w, "  %-9s %s/\n", "made", termtext.Escape(dir))
	}
}

// RunRestored prints what an undo or redo (kind) of a run did, and what
// undoes it.
func RunRestored(w io.Writer, kind string, rep sandbox.RestoreReport) {
	Files(w, rep)
	if kind == "undo" {
		fmt.Fprintf(w, "undid run %s; 'agent redo' puts it back, 'agent undo' goes one run further back\n", rep.Run)
	} else {
		fmt.Fprintf(w, "redid run %s; 'agent undo' reverts it again\n", rep.Run)
	}
}

// Restored prints what a restore of one change set did, and what puts it
// back.
func Restored(w io.Writer, rep sandbox.RestoreReport) {
	Files(w, rep)
	if len(rep.Changed()) == 0 {
		fmt.Fprintf(w, "change set %s: the files already are as they were before it\n", rep.ChangeSet)
		return
	}
	fmt.Fprintf(w, "reverted change set %s; recorded as %s ('agent backups restore %s' puts the changes back)\n", rep.ChangeSet, rep.Recorded, rep.Recorded)
}

// JSON prints the change sets as a JSON array, each with its entries.
func JSON(w io.Writer, sets []backup.ChangeSet) error {
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
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// ListJSON prints the change sets of the project at root as JSON.
func ListJSON(w io.Writer, root *sandbox.Root) error {
	st, err := root.Backups()
	if err != nil {
		return err
	}
	sets, err := st.List()
	if err != nil {
		return err
	}
	return JSON(w, sets)
}

// ChangeSets prints the project's change sets as a table, oldest first.
func ChangeSets(w io.Writer, root *sandbox.Root) error {
	st, err := root.Backups()
	if err != nil {
		return err
	}
	sets, err := st.List()
	if err != nil {
		return err
	}
	if len(sets) == 0 {
		fmt.Fprintln(w, "no backups yet")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTIME\tFILES")
	for _, c := range sets {
		files := c.FileSummary(3)
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
		fmt.Fprintf(tw, "%s\t%s\t%s\n", termtext.Escape(c.ID), c.Time.Local().Format("2006-01-02 15:04:05"), termtext.Escape(files))
	}
	return tw.Flush()
}

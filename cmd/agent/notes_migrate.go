package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/notes/notesview"
)

func newNotesReindexCmd(d *factory, o *notesOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "reindex",
		Short: "Embed the notes that have no vectors yet, for search by meaning",
		Long: `reindex embeds, with the model of [notes.embeddings], every note that has
no vectors of that model: notes imported in bulk, notes written before
embeddings were configured or while another model was. It sends them to
the provider in batches and shows its progress; it can be stopped and run
again, and goes on where it stopped.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.withStore(cmd, d, func(ctx context.Context, s notes.Store) error {
				if o.emb == nil {
					return usageErrorf("no embeddings are configured: set [notes.embeddings] provider (gemini or openai) in your config")
				}
				ix, ok := s.(notes.Indexer)
				if !ok {
					return errors.New("this notes store keeps no vectors")
				}
				done, err := notes.Reindex(ctx, ix, o.emb, notesview.Progress(d.io.ErrOut, d.io.stderrTTY, "embedding"))
				if err != nil {
					return fmt.Errorf("embedded %d notes, then: %w", done, err)
				}
				if o.asJSON {
					return printJSON(d, map[string]any{"embedded": done, "model": o.emb.Model()})
				}
				_, err = fmt.Fprintf(d.io.Out, "embedded %d notes with %s\n", done, o.emb.Model())
				return err
			})
		},
	}
}

func newNotesMigrateCmd(d *factory, o *notesOptions) *cobra.Command {
	var to string
	cmd := &cobra.Command{
		Use:   "migrate --to URL",
		Short: "Copy the project's local notes into a PostgreSQL database",
		Long: `migrate copies the project's SQLite notes store (.agent/notes.db, notes.path
or --db) into the PostgreSQL database at URL, in the project's space
(--space, notes.space, or the project folder's name): every note with its
id, times, tags and folder, the history of replaced and deleted versions,
and the vectors. It is one transaction: all or nothing. A space that
already holds notes is refused. The local file is left as it is; set
notes.database_url in your config to use the database from then on.`,
		Example: `  agent notes migrate --to postgres://me@db.example/notes
  agent notes migrate --to 'host=/var/run/postgresql dbname=notes' --space web`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if to == "" {
				return usageErrorf("give the database with --to URL")
			}
			ctx := cmd.Context()
			root, err := projectFolder(o.dir)
			if err != nil {
				return err
			}
			cfg, err := d.localConfig(root)
			if err != nil {
				return err
			}
			if o.space != "" {
				cfg.Notes.Space = o.space
			}
			path := o.db
			if path == "" {
				path = cfg.NotesPath(root, d.environ()["HOME"])
			}
			if _, err := os.Stat(path); err != nil {
				return usageErrorf("no local notes store at %s to migrate", path)
			}
			space := cfg.NotesSpace(root)
			dump, err := notes.Migrate(ctx, path, to, space)
			if errors.Is(err, notes.ErrInvalid) {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			if o.asJSON {
				return printJSON(d, map[string]any{"notes": len(dump.Notes), "versions": len(dump.History), "chunks": len(dump.Chunks), "space": space})
			}
			fmt.Fprintf(d.io.Out, "copied %d notes (%d old versions, %d vectors) into space %q\n", len(dump.Notes), len(dump.History), len(dump.Chunks), space)
			fmt.Fprintln(d.io.ErrOut, "agent: note: set notes.database_url in your config (or AGENT_NOTES_DATABASE_URL) to use that database from now on")
			return nil
		},
	}
	cmd.Flags().StringVar(&to, "to", "", "the PostgreSQL database: a postgres:// URL or key=value settings")
	return cmd
}

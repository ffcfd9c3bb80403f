package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/notes/notesview"
)

// notesOptions are the flags every notes subcommand shares, and what
// opening the store found.
type notesOptions struct {
	dir, db, space string
	asJSON         bool
	// emb is the configured embedder (nil without [notes.embeddings]),
	// set when the store is opened.
	emb notes.Embedder
}

// newNotesCmd builds `agent notes` and its subcommands.
func newNotesCmd(d *factory) *cobra.Command {
	o := &notesOptions{}
	cmd := &cobra.Command{
		Use:   "notes",
		Short: "Add, list, search and edit the project's notes",
		Long: `notes works with the notes store the model reads and writes through the
note_* tools: .agent/notes.db in the project, the file notes.path names in
config.toml, or, with notes.database_url (or AGENT_NOTES_DATABASE_URL) in
your own config, a PostgreSQL database shared by many projects, each in
its space (notes.space, default the project folder's name). Folders are
paths like /projects/web/; tags are labels. Search is ranked full-text
search (words, "exact phrase", prefix*, a OR b, a NOT b, title:word,
tag:word), and search by meaning too with [notes.embeddings].`,
		Example: `  agent notes add --title "Release plan" --tags release,q3 < plan.md
  agent notes search "release plan"
  agent notes search --mode meaning "how do we ship"
  agent notes edit 3 --append "Shipped on Friday."
  agent notes import ~/notes/             # a folder of Markdown files, or a .jsonl file
  agent notes reindex                     # embed what is not embedded yet
  agent notes migrate --to postgres://me@db.example/notes
  agent notes list --folder /projects --json`,
	}
	f := cmd.PersistentFlags()
	f.StringVar(&o.dir, "dir", "", "project folder (default: the current folder)")
	f.StringVar(&o.db, "db", "", "notes database file (default: notes.database_url, notes.path, or .agent/notes.db)")
	f.StringVar(&o.space, "space", "", "the space in a shared PostgreSQL database (default: notes.space, or the project folder's name)")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	cmd.AddCommand(
		newNotesAddCmd(d, o), newNotesListCmd(d, o), newNotesShowCmd(d, o), newNotesSearchCmd(d, o),
		newNotesEditCmd(d, o), newNotesRmCmd(d, o), newNotesCountsCmd(d, o, "folders"), newNotesCountsCmd(d, o, "tags"),
		newNotesImportCmd(d, o), newNotesReindexCmd(d, o), newNotesMigrateCmd(d, o),
	)
	return cmd
}

// withStore opens the notes store for the command, runs fn and closes it.
// Store errors become the command's errors: bad input is a usage error, a
// missing note a plain failure; with --json they are printed as JSON too.
func (o *notesOptions) withStore(cmd *cobra.Command, d *factory, fn func(ctx context.Context, s notes.Store) error) error {
	err := o.run(cmd.Context(), d, fn)
	if err == nil {
		return nil
	}
	code := notesview.ErrorCode(err)
	if code == "TOOL_SCHEMA_INVALID" {
		err = usageError{err}
	}
	if o.asJSON {
		_ = printJSON(d, map[string]any{"error": map[string]string{"code": code, "message": err.Error()}})
	}
	return err
}

func (o *notesOptions) run(ctx context.Context, d *factory, fn func(ctx context.Context, s notes.Store) error) error {
	s, err := o.open(ctx, d)
	if err != nil {
		return err
	}
	if err := fn(ctx, s); err != nil {
		s.Close()
		return err
	}
	return s.Close()
}

// open opens the store the flags and the config name: --db's SQLite
// file, else as configured (app.OpenNotes), with --space for notes.space.
func (o *notesOptions) open(ctx context.Context, d *factory) (notes.Store, error) {
	root, err := projectFolder(o.dir)
	if err != nil {
		return nil, err
	}
	cfg, err := d.localConfig(root)
	if err != nil {
		return nil, err
	}
	env := d.environ()
	if o.emb, err = app.NotesEmbedder(cfg, env); err != nil {
		return nil, err
	}
	if o.space != "" {
		cfg.Notes.Space = o.space
	}
	if o.db != "" {
		return notes.OpenSQLite(ctx, o.db, notes.Options{Embedder: o.emb})
	}
	return app.OpenNotes(ctx, cfg, root, env)
}

// printJSON prints v as indented JSON on the command's output.
func printJSON(d *factory, v any) error { return notesview.JSON(d.io.Out, v) }

// noteIDArg reads a note id argument.
func noteIDArg(s string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimPrefix(s, "#"), 10, 64)
	if err != nil || id <= 0 {
		return 0, usageErrorf("%q is not a note id (a number, as agent notes list shows)", s)
	}
	return id, nil
}

func newNotesAddCmd(d *factory, o *notesOptions) *cobra.Command {
	var title, folder, tags string
	cmd := &cobra.Command{
		Use:   "add [TEXT...]",
		Short: "Add a note (text from the arguments, standard input, or $EDITOR)",
		Long: `add saves a new note. Its text is the arguments, or else standard input,
or else, on a terminal, what you write in $EDITOR. The title is --title, or
else the first line of the text.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			text, err := noteText(d, args, "")
			if err != nil {
				return err
			}
			if title == "" {
				title = notes.TitleFrom(text)
			}
			tagList, err := notes.ParseTags(tags)
			if err != nil {
				return usageError{err}
			}
			return o.withStore(cmd, d, func(ctx context.Context, s notes.Store) error {
				n, err := s.Create(ctx, notes.NewNote{Title: title, Content: text, Folder: folder, Tags: tagList})
				if err != nil {
					return err
				}
				if o.asJSON {
					return printJSON(d, n)
				}
				_, err = fmt.Fprintf(d.io.Out, "created note %d %q in %s\n", n.ID, n.Title, n.Folder)
				return err
			})
		},
	}
	cmd.Flags().StringVar(&title, "title", "", "title (default: the first line)")
	cmd.Flags().StringVar(&folder, "folder", "", "folder, like /projects/web (default /)")
	cmd.Flags().StringVar(&tags, "tags", "", "tags, comma-separated")
	return cmd
}

func newNotesEditCmd(d *factory, o *notesOptions) *cobra.Command {
	var title, folder, tags string
	var appendText, prependText bool
	cmd := &cobra.Command{
		Use:   "edit ID [TEXT...]",
		Short: "Change a note, keeping its id (text from the arguments, standard input, or $EDITOR)",
		Long: `edit changes a note in place: it keeps its id, creation time and (unless
--tags is given) its tags. The new text is the arguments, or else standard
input, or else, on a terminal, the note opened in $EDITOR; --append and
--prepend add the text instead of replacing it. With only --title, --folder
or --tags the text stays as it is. The version replaced is kept in the
notes history.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := noteIDArg(args[0])
			if err != nil {
				return err
			}
			if appendText && prependText {
				return usageErrorf("--append and --prepend exclude each other")
			}
			c := notes.Change{Mode: notes.Replace}
			if appendText {
				c.Mode = notes.Append
			} else if prependText {
				c.Mode = notes.Prepend
			}
			f := cmd.Flags()
			if f.Changed("title") {
				c.Title = &title
			}
			if f.Changed("folder") {
				c.Folder = &folder
			}
			if f.Changed("tags") {
				t, err := notes.ParseTags(tags)
				if err != nil {
					return usageError{err}
				}
				c.Tags = &t
			}
			metaOnly := len(args) == 1 && c.Mode == notes.Replace && (c.Title != nil || c.Folder != nil || c.Tags != nil)
			return o.withStore(cmd, d, func(ctx context.Context, s notes.Store) error {
				text := func(start string) (string, error) { return noteText(d, args[1:], start) }
				n, changed, err := notesview.Change(ctx, s, id, c, metaOnly, text)
				if err != nil {
					return err
				}
				if !changed {
					fmt.Fprintln(d.io.ErrOut, "agent: note: nothing changed")
					return nil
				}
				if o.asJSON {
					return printJSON(d, n)
				}
				_, err = fmt.Fprintf(d.io.Out, "updated note %d %q\n", n.ID, n.Title)
				return err
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&title, "title", "", "new title")
	f.StringVar(&folder, "folder", "", "move to this folder")
	f.StringVar(&tags, "tags", "", "new tags, comma-separated (replace the old ones)")
	f.BoolVar(&appendText, "append", false, "add the text at the end")
	f.BoolVar(&prependText, "prepend", false, "add the text at the start")
	return cmd
}

func newNotesRmCmd(d *factory, o *notesOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "rm ID",
		Short: "Delete a note (it stays in the notes history)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := noteIDArg(args[0])
			if err != nil {
				return err
			}
			return o.withStore(cmd, d, func(ctx context.Context, s notes.Store) error {
				n, err := s.Delete(ctx, id)
				if err != nil {
					return notesview.NotFound(err, id)
				}
				if o.asJSON {
					return printJSON(d, map[string]any{"deleted": n})
				}
				_, err = fmt.Fprintf(d.io.Out, "deleted note %d %q\n", n.ID, n.Title)
				return err
			})
		},
	}
}

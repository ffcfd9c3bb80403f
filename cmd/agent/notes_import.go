package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/notes/notesview"
)

func newNotesImportCmd(d *factory, o *notesOptions) *cobra.Command {
	var folder, tags string
	cmd := &cobra.Command{
		Use:   "import PATH...",
		Short: "Import many notes at once: a folder of Markdown files, or JSON Lines",
		Long: `import creates a note for each Markdown file (.md, .markdown, .txt) under
the folders given, and for each line of the .jsonl files given (- reads
JSON Lines from standard input), in transactions of 5,000 notes: tens of
thousands of notes a second.

A Markdown file's title is its front matter's title: (between --- lines
at the top, with tags: and folder: too), else its first line; its folder
is --folder joined with the file's folder under the one imported. A JSON
line is {"title": ..., "content": ..., "folder": ..., "tags": [...]}.
Every note is checked before any is written; one that is not valid stops
the import, naming its file or line. Imported notes are not embedded:
with [notes.embeddings], run agent notes reindex afterwards.`,
		Example: `  agent notes import ~/obsidian/vault
  agent notes import --folder /imported --tags old notes.jsonl
  some-export | agent notes import -`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			extra, err := notes.ParseTags(tags)
			if err != nil {
				return usageError{err}
			}
			var all []notes.NewNote
			for _, a := range args {
				ns, err := notes.ReadImport(a, folder, extra, d.io.In)
				var ie *notes.ImportError
				if errors.As(err, &ie) {
					return usageError{err}
				}
				if err != nil {
					return err
				}
				all = append(all, ns...)
			}
			if len(all) == 0 {
				return usageErrorf("nothing to import: no Markdown files or JSON lines in %s", strings.Join(args, ", "))
			}
			return o.withStore(cmd, d, func(ctx context.Context, s notes.Store) error {
				bar := notesview.Progress(d.io.ErrOut, d.io.stderrTTY, "importing")
				start := time.Now()
				done, err := notes.ImportAll(ctx, s, all, bar)
				if err != nil {
					return fmt.Errorf("imported %d of %d notes, then: %w", done, len(all), err)
				}
				took := time.Since(start)
				if o.asJSON {
					return printJSON(d, map[string]any{"imported": done, "seconds": took.Seconds()})
				}
				fmt.Fprintf(d.io.Out, "imported %d notes in %s (%.0f notes/s)\n", done, took.Round(time.Millisecond), float64(done)/took.Seconds())
				if o.emb != nil {
					fmt.Fprintln(d.io.ErrOut, "agent: note: imported notes are not embedded yet; agent notes reindex embeds them")
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&folder, "folder", "", "put the notes under this folder")
	cmd.Flags().StringVar(&tags, "tags", "", "add these tags to every note, comma-separated")
	return cmd
}

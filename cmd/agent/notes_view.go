package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/notes/notesview"
)

func newNotesListCmd(d *factory, o *notesOptions) *cobra.Command {
	var lo notes.ListOptions
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List notes, the most recently updated first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.withStore(cmd, d, func(ctx context.Context, s notes.Store) error {
				p, err := s.List(ctx, lo)
				if err != nil {
					return err
				}
				if o.asJSON {
					return printJSON(d, p)
				}
				return d.notesView().List(p, lo.Offset)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&lo.Folder, "folder", "", "only this folder and its subfolders")
	f.StringVar(&lo.Tag, "tag", "", "only notes with this tag")
	f.IntVar(&lo.Limit, "limit", notes.DefaultLimit, "notes to show at most")
	f.IntVar(&lo.Offset, "offset", 0, "notes to skip")
	return cmd
}

func newNotesShowCmd(d *factory, o *notesOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "show ID",
		Short: "Print a note",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := noteIDArg(args[0])
			if err != nil {
				return err
			}
			return o.withStore(cmd, d, func(ctx context.Context, s notes.Store) error {
				n, err := s.Get(ctx, id)
				if err != nil {
					return notesview.NotFound(err, id)
				}
				if o.asJSON {
					return printJSON(d, n)
				}
				return d.notesView().Note(n)
			})
		},
	}
}

func newNotesSearchCmd(d *factory, o *notesOptions) *cobra.Command {
	var so notes.SearchOptions
	cmd := &cobra.Command{
		Use:   "search [--] QUERY...",
		Short: "Search the notes, best match first, with excerpts",
		Long: `search finds notes, best match first, and shows an excerpt of each with
the matches highlighted.

--mode text is full-text search: words are stemmed ("cache" finds
"caches"), a note's title, tags and folder count as well as its text (a
title match most), and words written with punctuation (well-known, c++,
e-mail) are searched as the words they hold. Syntax: words (all must
match), "exact phrase", prefix*, a OR b, a NOT b, (a OR b) c, title:word,
tag:word, folder:word, content:word. A query that is not valid syntax
(an unclosed quote, a dangling OR) is searched as plain words, and a note
on standard error says so.

--mode meaning finds notes by what they mean ("deploy checklist" finds
"release steps"), with [notes.embeddings] configured; --mode hybrid (the
default then) fuses both rankings. Without embeddings text is the
default.

A query that starts with - would be read as a flag: put -- before it, or
quote it inside the query: agent notes search -- -hosted, or
agent notes search '"-hosted"'.`,
		Example: `  agent notes search release plan
  agent notes search 'title:release OR tag:q3'
  agent notes search --mode meaning how do we ship
  agent notes search -- -hosted`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			so.Query = strings.Join(args, " ")
			return o.withStore(cmd, d, func(ctx context.Context, s notes.Store) error {
				r, err := s.Search(ctx, so)
				if err != nil {
					return err
				}
				if r.Fallback != "" {
					fmt.Fprintln(d.io.ErrOut, "agent: note: "+r.Fallback)
				}
				if o.asJSON {
					return printJSON(d, notesview.Marked(r))
				}
				return d.notesView().Search(r, so.AllSpaces)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&so.Folder, "folder", "", "only this folder and its subfolders")
	f.StringVar(&so.Tag, "tag", "", "only notes with this tag")
	f.IntVar(&so.Limit, "limit", notes.DefaultLimit, "results to show at most")
	f.StringVar(&so.Mode, "mode", "", "text, meaning or hybrid (default: hybrid with [notes.embeddings], else text)")
	f.BoolVar(&so.AllSpaces, "all-spaces", false, "search every space of a shared PostgreSQL database, not only the project's")
	return cmd
}

// newNotesCountsCmd builds `agent notes folders` and `agent notes tags`.
func newNotesCountsCmd(d *factory, o *notesOptions, what string) *cobra.Command {
	return &cobra.Command{
		Use:   what,
		Short: "List the " + what + " in use, with their numbers of notes",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.withStore(cmd, d, func(ctx context.Context, s notes.Store) error {
				list := s.Folders
				if what == "tags" {
					list = s.Tags
				}
				counts, err := list(ctx)
				if err != nil {
					return err
				}
				if o.asJSON {
					return printJSON(d, counts)
				}
				return d.notesView().Counts(counts)
			})
		},
	}
}

// notesView shows notes on the command's standard output.
func (d *factory) notesView() notesview.View {
	return notesview.View{Out: d.io.Out, ErrOut: d.io.ErrOut, TTY: d.io.stdoutTTY}
}

// noteText is a note's text: the arguments, else standard input, else
// (on a terminal) what the user writes in $EDITOR, starting from start.
func noteText(d *factory, args []string, start string) (string, error) {
	if len(args) > 0 {
		return strings.Join(args, " "), nil
	}
	if !d.io.stdinTTY {
		data, err := io.ReadAll(io.LimitReader(d.io.In, notes.MaxContent+1))
		if err != nil {
			return "", fmt.Errorf("read standard input: %w", err)
		}
		if len(data) == 0 {
			return "", usageErrorf("no text: give it as arguments or on standard input")
		}
		return string(data), nil
	}
	return editText(d, start)
}

// editText opens $VISUAL or $EDITOR (vi when neither is set) on a
// temporary file holding start, and returns what was saved. The editor's
// program is found as every helper program is (programs.go), for the
// project of the current folder.
func editText(d *factory, start string) (string, error) {
	root, err := projectFolder("")
	if err != nil {
		return "", err
	}
	cfg, err := d.localConfig(root)
	if err != nil {
		return "", err
	}
	progs := d.programs(root, cfg)
	editor, err := progs.Editor(d.environ())
	if err != nil {
		return "", err
	}
	data, err := notesview.Edit(editor, progs.Environ(os.Environ()), start)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(string(data)) == "" {
		return "", usageErrorf("the note is empty; nothing saved")
	}
	return string(data), nil
}

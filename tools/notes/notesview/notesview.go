// Package notesview shows notes to a person: the listings, a note, the
// search results and the counts of agent notes, safe on a terminal and
// plain in a pipe or a file. The command (cobra) opens the store and
// hands the view what it read.
package notesview

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools/notes"
)

// View writes notes to Out (notes to the person on ErrOut); TTY says Out
// is a terminal.
type View struct {
	Out, ErrOut io.Writer
	TTY         bool
}

// List prints a page of notes as a table, and on ErrOut how to see more
// when offset and the page leave some out.
func (v View) List(p notes.Page, offset int) error {
	tw := tabwriter.NewWriter(v.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUPDATED\tFOLDER\tTAGS\tTITLE")
	for _, n := range p.Notes {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", n.ID, n.UpdatedAt.Format(notes.TimeFormat), v.show(n.Folder), v.show(strings.Join(n.Tags, ",")), v.show(n.Title))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if shown := offset + len(p.Notes); shown < p.Total {
		fmt.Fprintf(v.ErrOut, "agent: note: %d of %d notes shown; --offset %d shows more\n", len(p.Notes), p.Total, shown)
	}
	return nil
}

// Note prints one note: its title, its facts, its text.
func (v View) Note(n notes.Note) error {
	fmt.Fprintf(v.Out, "# %s\nid %d · %s · tags: %s · created %s · updated %s\n\n", v.show(n.Title), n.ID, v.show(n.Folder),
		v.show(strings.Join(n.Tags, ", ")), n.CreatedAt.Format(notes.TimeFormat), n.UpdatedAt.Format(notes.TimeFormat))
	body := v.show(n.Content)
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	_, err := io.WriteString(v.Out, body)
	return err
}

// Search prints the hits of a search, each with its excerpt (the space
// too with allSpaces), and on ErrOut when none matched.
func (v View) Search(r notes.SearchResult, allSpaces bool) error {
	var b strings.Builder
	for _, h := range r.Hits {
		n := h.Note
		fmt.Fprintf(&b, "%d  %s  %s", n.ID, v.bold(v.show(n.Title)), v.show(n.Folder))
		if len(n.Tags) > 0 {
			b.WriteString("  " + v.show(strings.Join(n.Tags, ",")))
		}
		if allSpaces && n.Space != "" {
			b.WriteString("  space " + v.show(n.Space))
		}
		if h.Match == "meaning" {
			b.WriteString("  (by meaning)")
		}
		b.WriteString("\n    " + v.excerpt(h.Excerpt) + "\n")
	}
	if len(r.Hits) == 0 {
		fmt.Fprintln(v.ErrOut, "agent: note: no notes match")
	}
	_, err := io.WriteString(v.Out, b.String())
	return err
}

// Marked is r with the matches in its excerpts between ** (for JSON).
func Marked(r notes.SearchResult) notes.SearchResult {
	for i := range r.Hits {
		r.Hits[i].Excerpt = notes.Highlight(r.Hits[i].Excerpt, "**", "**")
	}
	return r
}

// Counts prints folders or tags with their numbers of notes.
func (v View) Counts(counts []notes.Count) error {
	var b strings.Builder
	for _, c := range counts {
		fmt.Fprintf(&b, "%6d  %s\n", c.Notes, v.show(c.Name))
	}
	_, err := io.WriteString(v.Out, b.String())
	return err
}

// show makes note text safe for a terminal (controls shown escaped), and
// plain text for a pipe or a file (controls removed).
func (v View) show(s string) string {
	if v.TTY {
		return termtext.Escape(s)
	}
	return termtext.Strip(s)
}

func (v View) bold(s string) string {
	if v.TTY {
		return "\x1b[1m" + s + "\x1b[0m"
	}
	return s
}

// excerpt shows a search excerpt on one line, the matches highlighted on
// a terminal and between ** elsewhere.
func (v View) excerpt(ex string) string {
	open, end := "**", "**"
	if v.TTY {
		open, end = "\x1b[1;33m", "\x1b[0m"
	}
	return notes.HighlightShown(termtext.OneLine(ex), open, end, v.show)
}

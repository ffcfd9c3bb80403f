package notesview

import (
	"context"

	"github.com/agentcli/agent/tools/notes"
)

// Change applies c to note id of s (agent notes edit). Unless metaOnly
// (only the title, folder or tags change), the new text comes from edit,
// given the text to start from: the note's for a replacement, nothing to
// append or prepend. changed is false when nothing would change; a
// missing note is named (NotFound).
func Change(ctx context.Context, s notes.Store, id int64, c notes.Change, metaOnly bool, edit func(start string) (string, error)) (n notes.Note, changed bool, err error) {
	old, err := s.Get(ctx, id)
	if err != nil {
		return notes.Note{}, false, NotFound(err, id)
	}
	if !metaOnly {
		start := old.Content
		if c.Mode != notes.Replace {
			start = ""
		}
		text, err := edit(start)
		if err != nil {
			return notes.Note{}, false, err
		}
		if c.Mode != notes.Replace || text != old.Content {
			c.Content = &text
		}
	}
	if c.Content == nil && c.Title == nil && c.Folder == nil && c.Tags == nil {
		return notes.Note{}, false, nil
	}
	n, err = s.Update(ctx, id, c)
	if err != nil {
		return notes.Note{}, false, NotFound(err, id)
	}
	return n, true, nil
}

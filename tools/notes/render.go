package notes

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentcli/agent/tools"
	udiff "github.com/aymanbagabas/go-udiff"
)

// maxDiffLines bounds a diff shown to the model or in a preview.
const maxDiffLines = 60

// TimeFormat is how the tools and the command line show times (UTC).
const TimeFormat = "2006-01-02 15:04Z"

func noteMeta(n Note) []tools.Attr {
	return []tools.Attr{
		{Name: "id", Value: fmt.Sprint(n.ID)},
		{Name: "title", Value: n.Title},
		{Name: "folder", Value: n.Folder},
		{Name: "tags", Value: strings.Join(n.Tags, ",")},
		{Name: "created", Value: n.CreatedAt.UTC().Format(TimeFormat)},
		{Name: "updated", Value: n.UpdatedAt.UTC().Format(TimeFormat)},
	}
}

// noteLine is one note in a listing: id, title, folder, tags, update time.
func noteLine(n Note) string {
	line := fmt.Sprintf("%d | %s | %s", n.ID, n.Title, n.Folder)
	if len(n.Tags) > 0 {
		line += " | " + strings.Join(n.Tags, ", ")
	}
	return line + " | " + n.UpdatedAt.UTC().Format(TimeFormat)
}

// describeChange says in a few words what an update changed.
func describeChange(old, n Note, content bool, mode string) string {
	var parts []string
	if content {
		parts = append(parts, fmt.Sprintf("%s: %d lines, was %d", mode, lineCount(n.Content), lineCount(old.Content)))
	}
	if old.Title != n.Title {
		parts = append(parts, "title")
	}
	if old.Folder != n.Folder {
		parts = append(parts, "folder "+n.Folder)
	}
	if !slices.Equal(old.Tags, n.Tags) {
		parts = append(parts, "tags "+strings.Join(n.Tags, ", "))
	}
	if len(parts) == 0 {
		return "no change"
	}
	return strings.Join(parts, "; ")
}

func lineCount(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

// contentDiff is a unified diff of a note's content, cut to maxDiffLines.
func contentDiff(id int64, old, new string) string {
	if old == new {
		return ""
	}
	name := fmt.Sprintf("note/%d", id)
	d := udiff.Unified("a/"+name, "b/"+name, old, new)
	lines := strings.SplitAfter(d, "\n")
	if len(lines) > maxDiffLines {
		d = strings.Join(lines[:maxDiffLines], "") + fmt.Sprintf("... (%d more diff lines)\n", len(lines)-maxDiffLines)
	}
	return d
}

// previewUpdate shows what note_update would do, through the same checks
// as the update itself.
func (t *noteTools) previewUpdate(ctx context.Context, in tools.Input) (tools.Preview, *tools.Result, error) {
	a, c, err := updateArgs(in)
	if err != nil {
		return previewFail(err, int64(a.NoteID))
	}
	old, err := t.s.Get(ctx, int64(a.NoteID))
	if err != nil {
		return previewFail(err, int64(a.NoteID))
	}
	n, err := applyChange(old, c)
	if err != nil {
		return previewFail(err, old.ID)
	}
	p := tools.Preview{Summary: fmt.Sprintf("update note %d %q", old.ID, old.Title), Diff: contentDiff(old.ID, old.Content, n.Content)}
	if n.Title != old.Title {
		p.Lines = append(p.Lines, fmt.Sprintf("title: %s -> %s", old.Title, n.Title))
	}
	if n.Folder != old.Folder {
		p.Lines = append(p.Lines, fmt.Sprintf("folder: %s -> %s", old.Folder, n.Folder))
	}
	if !slices.Equal(n.Tags, old.Tags) {
		p.Lines = append(p.Lines, fmt.Sprintf("tags: [%s] -> [%s]", strings.Join(old.Tags, ", "), strings.Join(n.Tags, ", ")))
	}
	return p, nil, nil
}

// previewDelete shows the note that note_delete would remove.
func (t *noteTools) previewDelete(ctx context.Context, in tools.Input) (tools.Preview, *tools.Result, error) {
	id, _ := in.Values["note_id"].(int)
	n, err := t.s.Get(ctx, int64(id))
	if err != nil {
		return previewFail(err, int64(id))
	}
	return tools.Preview{
		Summary: fmt.Sprintf("delete note %d %q", n.ID, n.Title),
		Diff:    contentDiff(n.ID, n.Content, ""),
		Lines: []string{
			"folder: " + n.Folder,
			"tags: " + strings.Join(n.Tags, ", "),
			"updated: " + n.UpdatedAt.UTC().Format(TimeFormat) + " (the note stays in the notes history)",
		},
	}, nil, nil
}

// previewFail is a preview's answer for a call that would fail: the
// error Result, or the Go error of a failing store.
func previewFail(err error, id int64) (tools.Preview, *tools.Result, error) {
	res, err := storeResult(err, id)
	if err != nil {
		return tools.Preview{}, nil, err
	}
	return tools.Preview{}, &res, nil
}

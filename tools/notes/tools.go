package notes

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
)

var (
	//go:embed note_create.md
	createDesc string
	//go:embed note_search.md
	searchDesc string
	//go:embed note_update.md
	updateDesc string
	//go:embed note_list.md
	listDesc string
	//go:embed note_get.md
	getDesc string
	//go:embed note_delete.md
	deleteDesc string
)

// CreateArgs are note_create's parameters.
type CreateArgs struct {
	Title   string `json:"title" jsonschema:"short title"`
	Content string `json:"content" verbatim:"true" jsonschema:"the note, Markdown"`
	Folder  string `json:"folder,omitempty" jsonschema:"like /projects/web/ (default /)"`
	Tags    string `json:"tags,omitempty" jsonschema:"a, b or [\"a\",\"b\"]"`
}

// SearchArgs are note_search's parameters.
type SearchArgs struct {
	Query  string `json:"query"`
	Folder string `json:"folder,omitempty" jsonschema:"only this folder and below"`
	Tag    string `json:"tag,omitempty"`
	Limit  int    `json:"limit,omitempty" jsonschema:"default 20"`
	Mode   string `json:"mode,omitempty" enum:"text,meaning,hybrid"`
}

// UpdateArgs are note_update's parameters.
type UpdateArgs struct {
	NoteID  int    `json:"note_id"`
	Content string `json:"content,omitempty" verbatim:"true"`
	Mode    string `json:"mode,omitempty" enum:"replace,append,prepend"`
	Title   string `json:"title,omitempty"`
	Tags    string `json:"tags,omitempty"`
	Folder  string `json:"folder,omitempty"`
}

// ListArgs are note_list's parameters.
type ListArgs struct {
	Folder string `json:"folder,omitempty"`
	Tag    string `json:"tag,omitempty"`
	Limit  int    `json:"limit,omitempty" jsonschema:"default 20"`
	Offset int    `json:"offset,omitempty"`
}

// IDArgs are the parameters of note_get and note_delete.
type IDArgs struct {
	NoteID int `json:"note_id"`
}

// Tools returns the six note tools on s, in catalog order: note_create,
// note_search, note_update, note_list, note_get, note_delete. Every
// change counts as a write; creating is not asked about, updating and
// deleting are (they implement tools.Previewer, with a diff).
func Tools(s Store) []tools.Tool {
	t := &noteTools{s: s}
	return []tools.Tool{
		tools.New("note_create", createDesc, t.create, tools.Writes(), tools.Acts(tools.ActionEdit), tools.NoApproval(), tools.OnDemand()),
		tools.New("note_search", searchDesc, t.search, tools.Acts(tools.ActionSearch), tools.OnDemand()),
		updateTool{tools.New("note_update", updateDesc, func(context.Context, UpdateArgs) (tools.Result, error) {
			panic("note_update runs through updateTool.Execute")
		}, tools.Writes(), tools.Acts(tools.ActionEdit), tools.OnDemand()), t},
		tools.New("note_list", listDesc, t.list, tools.Acts(tools.ActionRead), tools.OnDemand()),
		tools.New("note_get", getDesc, t.get, tools.Acts(tools.ActionRead), tools.OnDemand()),
		previewed{tools.New("note_delete", deleteDesc, t.delete, tools.Writes(), tools.Acts(tools.ActionDelete), tools.OnDemand()), t.previewDelete},
	}
}

type noteTools struct{ s Store }

// previewed adds a Preview to a typed tool.
type previewed struct {
	tools.Tool
	preview func(context.Context, tools.Input) (tools.Preview, *tools.Result, error)
}

// Preview says what the call would change.
func (p previewed) Preview(ctx context.Context, in tools.Input) (tools.Preview, *tools.Result, error) {
	return p.preview(ctx, in)
}

// storeResult turns a store error into the model's Result: a missing note
// and bad input are the model's to fix; anything else ends the turn.
func storeResult(err error, id int64) (tools.Result, error) {
	switch {
	case errors.Is(err, ErrNotFound):
		return tools.Errorf(CodeNotFound, "no note with id %d; note_search or note_list show the ids", id), nil
	case errors.Is(err, ErrInvalid):
		return tools.Errorf(tools.CodeSchemaInvalid, "%s", strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": ")), nil
	case errors.Is(err, ErrEmbedding):
		return tools.Errorf(CodeEmbedding, "the embedding provider failed, nothing was changed; try again, or search with mode text (%s)", err), nil
	}
	return tools.Result{}, err
}

func (t *noteTools) create(ctx context.Context, a CreateArgs) (tools.Result, error) {
	tags, err := ParseTags(a.Tags)
	if err != nil {
		return storeResult(err, 0)
	}
	n, err := t.s.Create(ctx, NewNote{Title: a.Title, Content: a.Content, Folder: a.Folder, Tags: tags, Session: tools.Info(ctx).SessionID})
	if err != nil {
		return storeResult(err, 0)
	}
	return tools.Result{
		Message:  fmt.Sprintf("created note %d %q in %s", n.ID, n.Title, n.Folder),
		Metadata: noteMeta(n),
	}, nil
}

func (t *noteTools) search(ctx context.Context, a SearchArgs) (tools.Result, error) {
	r, err := t.s.Search(ctx, SearchOptions{Query: a.Query, Folder: a.Folder, Tag: a.Tag, Limit: a.Limit, Mode: a.Mode})
	if err != nil {
		return storeResult(err, 0)
	}
	msg := fmt.Sprintf("%d notes match %s", len(r.Hits), r.Query)
	if len(r.Hits) == 1 {
		msg = "1 note matches " + r.Query
	}
	if r.Fallback != "" {
		msg += " (" + r.Fallback + ")"
	}
	var b strings.Builder
	for _, h := range r.Hits {
		b.WriteString(noteLine(h.Note))
		if h.Match == "meaning" {
			b.WriteString(" | by meaning")
		}
		if ex := termtext.OneLine(Highlight(h.Excerpt, "**", "**")); ex != "" {
			b.WriteString("\n  " + ex)
		}
		b.WriteString("\n")
	}
	return tools.Result{Message: msg, Metadata: []tools.Attr{{Name: "hits", Value: fmt.Sprint(len(r.Hits))}}, Content: b.String()}, nil
}

func (t *noteTools) list(ctx context.Context, a ListArgs) (tools.Result, error) {
	p, err := t.s.List(ctx, ListOptions(a))
	if err != nil {
		return storeResult(err, 0)
	}
	var b strings.Builder
	for _, n := range p.Notes {
		b.WriteString(noteLine(n) + "\n")
	}
	msg := fmt.Sprintf("no notes (of %d)", p.Total)
	if len(p.Notes) > 0 {
		first := max(a.Offset, 0) + 1
		msg = fmt.Sprintf("notes %d-%d of %d", first, first+len(p.Notes)-1, p.Total)
		if next := first - 1 + len(p.Notes); next < p.Total {
			msg += fmt.Sprintf("; offset %d shows more", next)
		}
	}
	return tools.Result{Message: msg, Metadata: []tools.Attr{{Name: "total", Value: fmt.Sprint(p.Total)}}, Content: b.String()}, nil
}

func (t *noteTools) get(ctx context.Context, a IDArgs) (tools.Result, error) {
	n, err := t.s.Get(ctx, int64(a.NoteID))
	if err != nil {
		return storeResult(err, int64(a.NoteID))
	}
	return tools.Result{Message: fmt.Sprintf("note %d %q", n.ID, n.Title), Metadata: noteMeta(n), Content: n.Content}, nil
}

// change turns note_update's arguments into a Change.
func (a UpdateArgs) change(present func(string) bool) (Change, error) {
	c := Change{Mode: a.Mode}
	if present("content") {
		c.Content = &a.Content
	}
	if present("title") {
		c.Title = &a.Title
	}
	if present("folder") {
		c.Folder = &a.Folder
	}
	if present("tags") {
		tags, err := ParseTags(a.Tags)
		if err != nil {
			return Change{}, err
		}
		c.Tags = &tags
	}
	if c.Content == nil && c.Title == nil && c.Folder == nil && c.Tags == nil {
		return Change{}, invalidf("nothing to change: give content, title, tags or folder")
	}
	return c, nil
}

// updateTool is note_update. It reads its input itself: a typed struct
// cannot tell an absent title from an empty one, nor "no content" from
// "replace the content with nothing".
type updateTool struct {
	tools.Tool // the definition, inferred from UpdateArgs
	t          *noteTools
}

// Execute runs the update.
func (u updateTool) Execute(ctx context.Context, in tools.Input) (tools.Result, error) {
	return u.t.update(ctx, in)
}

// Preview shows the update as a diff.
func (u updateTool) Preview(ctx context.Context, in tools.Input) (tools.Preview, *tools.Result, error) {
	return u.t.previewUpdate(ctx, in)
}

// updateArgs reads note_update's validated input.
func updateArgs(in tools.Input) (UpdateArgs, Change, error) {
	str := func(k string) string { s, _ := in.Values[k].(string); return s }
	id, _ := in.Values["note_id"].(int)
	a := UpdateArgs{NoteID: id, Content: str("content"), Mode: str("mode"), Title: str("title"), Tags: str("tags"), Folder: str("folder")}
	c, err := a.change(func(name string) bool { _, ok := in.Values[name]; return ok })
	return a, c, err
}

func (t *noteTools) update(ctx context.Context, in tools.Input) (tools.Result, error) {
	a, c, err := updateArgs(in)
	if err != nil {
		return storeResult(err, int64(a.NoteID))
	}
	old, err := t.s.Get(ctx, int64(a.NoteID))
	if err != nil {
		return storeResult(err, int64(a.NoteID))
	}
	n, err := t.s.Update(ctx, int64(a.NoteID), c)
	if err != nil {
		return storeResult(err, int64(a.NoteID))
	}
	mode := c.Mode
	if mode == "" {
		mode = Replace
	}
	return tools.Result{
		Message:  fmt.Sprintf("updated note %d %q (%s)", n.ID, n.Title, describeChange(old, n, c.Content != nil, mode)),
		Metadata: noteMeta(n),
		Content:  contentDiff(n.ID, old.Content, n.Content),
	}, nil
}

func (t *noteTools) delete(ctx context.Context, a IDArgs) (tools.Result, error) {
	n, err := t.s.Delete(ctx, int64(a.NoteID))
	if err != nil {
		return storeResult(err, int64(a.NoteID))
	}
	return tools.Result{Message: fmt.Sprintf("deleted note %d %q; it is kept in the notes history", n.ID, n.Title)}, nil
}

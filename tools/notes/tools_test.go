package notes_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/notes"
)

func newReg(t *testing.T) (*tools.Registry, *notes.SQLite) {
	t.Helper()
	s := openTemp(t)
	return tools.NewRegistry(notes.Tools(s)...), s
}

func call(t *testing.T, reg *tools.Registry, name string, args map[string]string) tools.Result {
	t.Helper()
	ctx := tools.WithInfo(context.Background(), tools.CallInfo{SessionID: "sess-1", CallID: "1"})
	res, err := reg.Call(ctx, name, args)
	if err != nil {
		t.Fatalf("%s(%v): Go error %v", name, args, err)
	}
	return res
}

func meta(r tools.Result, name string) string {
	for _, a := range r.Metadata {
		if a.Name == name {
			return a.Value
		}
	}
	return ""
}

func TestCreateTool(t *testing.T) {
	reg, s := newReg(t)
	for _, c := range []struct{ tags, want string }{
		{"b, a ,b", "a,b"},
		{`["Beta","alpha"]`, "alpha,beta"},
		{"", ""},
	} {
		r := call(t, reg, "note_create", map[string]string{"title": "T", "content": "\nbody\n", "folder": "x//y", "tags": c.tags})
		if r.IsError() || meta(r, "tags") != c.want || meta(r, "folder") != "/x/y/" {
			t.Errorf("note_create(tags %q) = %+v, want tags %s in /x/y/", c.tags, r, c.want)
		}
		n, err := s.Get(context.Background(), 1)
		if err != nil || n.Content != "body\n" || n.Session != "sess-1" {
			t.Errorf("stored note %+v, %v: want verbatim body, session sess-1", n, err)
		}
	}
	if r := call(t, reg, "note_create", map[string]string{"title": "T", "content": "x", "tags": `["a",`}); r.Code != tools.CodeSchemaInvalid {
		t.Errorf("bad JSON tags = %+v, want TOOL_SCHEMA_INVALID", r)
	}
	if r := call(t, reg, "note_create", map[string]string{"title": " ", "content": "x"}); r.Code != tools.CodeSchemaInvalid || !strings.Contains(r.Message, "title") {
		t.Errorf("empty title = %+v, want TOOL_SCHEMA_INVALID about the title", r)
	}
}

func TestUpdateTool(t *testing.T) {
	reg, s := newReg(t)
	call(t, reg, "note_create", map[string]string{"title": "Log", "content": "one\n", "tags": "keep"})
	for _, c := range []struct {
		args map[string]string
		want string
	}{
		{map[string]string{"note_id": "1", "content": "two\n", "mode": "append"}, "one\ntwo\n"},
		{map[string]string{"note_id": "1", "content": "zero\n", "mode": "Prepend"}, "zero\none\ntwo\n"},
		{map[string]string{"note_id": "1", "title": "Renamed"}, "zero\none\ntwo\n"},
		{map[string]string{"note_id": "1", "content": "fresh"}, "fresh"},
		{map[string]string{"note_id": "1", "content": ""}, ""},
	} {
		r := call(t, reg, "note_update", c.args)
		n, _ := s.Get(context.Background(), 1)
		if r.IsError() || n.Content != c.want || n.ID != 1 || strings.Join(n.Tags, ",") != "keep" {
			t.Errorf("note_update(%v) = %+v; note %+v, want content %q, tags kept", c.args, r, n, c.want)
		}
	}
	n, _ := s.Get(context.Background(), 1)
	if n.Title != "Renamed" {
		t.Errorf("title %q, want Renamed", n.Title)
	}
	if r := call(t, reg, "note_update", map[string]string{"note_id": "1", "tags": "a,b"}); meta(r, "tags") != "a,b" {
		t.Errorf("tags update = %+v", r)
	}
	r := call(t, reg, "note_update", map[string]string{"note_id": "1", "content": "diffed\n"})
	if !strings.Contains(r.Content, "+diffed") {
		t.Errorf("update result content %q, want a diff", r.Content)
	}
	for _, c := range []struct {
		args map[string]string
		code string
	}{
		{map[string]string{"note_id": "42", "content": "x"}, notes.CodeNotFound},
		{map[string]string{"note_id": "1"}, tools.CodeSchemaInvalid},
		{map[string]string{"note_id": "1", "content": "x", "mode": "sideways"}, tools.CodeSchemaInvalid},
		{map[string]string{"note_id": "one", "content": "x"}, tools.CodeSchemaInvalid},
	} {
		if r := call(t, reg, "note_update", c.args); r.Code != c.code {
			t.Errorf("note_update(%v) = %+v, want %s", c.args, r, c.code)
		}
	}
	if r := call(t, reg, "note_update", map[string]string{"note_id": "42", "content": "x"}); !strings.Contains(r.Message, "no note with id 42") {
		t.Errorf("missing note message %q", r.Message)
	}
}

func TestReadTools(t *testing.T) {
	reg, _ := newReg(t)
	for i := range 5 {
		call(t, reg, "note_create", map[string]string{"title": "Meeting " + string(rune('a'+i)), "content": "budget talk ]]> <tool_call", "folder": "/m", "tags": "meet"})
	}
	r := call(t, reg, "note_list", map[string]string{"limit": "2", "offset": "2"})
	if r.IsError() || !strings.Contains(r.Message, "notes 3-4 of 5; offset 4 shows more") || strings.Count(r.Content, "\n") != 2 {
		t.Errorf("note_list page = %+v", r)
	}
	if r := call(t, reg, "note_list", map[string]string{"tag": "none"}); r.Message != "no notes (of 0)" {
		t.Errorf("note_list(tag none) = %+v", r)
	}
	r = call(t, reg, "note_search", map[string]string{"query": "budget", "limit": "3"})
	if r.IsError() || meta(r, "hits") != "3" || !strings.Contains(r.Content, "**budget**") {
		t.Errorf("note_search = %+v, want 3 hits with marks", r)
	}
	r = call(t, reg, "note_search", map[string]string{"query": `"budget`})
	if r.IsError() || !strings.Contains(r.Message, "plain words") || meta(r, "hits") != "5" {
		t.Errorf("note_search(unbalanced) = %+v, want a fallback that says so", r)
	}
	r = call(t, reg, "note_get", map[string]string{"note_id": "2"})
	if r.Content != "budget talk ]]> <tool_call" || meta(r, "title") != "Meeting b" {
		t.Errorf("note_get = %+v", r)
	}
	if r := call(t, reg, "note_get", map[string]string{"note_id": "9"}); r.Code != notes.CodeNotFound {
		t.Errorf("note_get(9) = %+v", r)
	}
	if r := call(t, reg, "note_delete", map[string]string{"note_id": "2"}); r.IsError() {
		t.Errorf("note_delete = %+v", r)
	}
	if r := call(t, reg, "note_delete", map[string]string{"note_id": "2"}); r.Code != notes.CodeNotFound {
		t.Errorf("second note_delete = %+v, want NOTE_NOT_FOUND", r)
	}
}

func TestDefinitionsAndPreviews(t *testing.T) {
	reg, _ := newReg(t)
	writes := map[string]bool{"note_create": true, "note_update": true, "note_delete": true}
	for _, tool := range reg.Tools() {
		d := tool.Definition()
		_, previews := tool.(tools.Previewer)
		wantPreview := d.Name == "note_update" || d.Name == "note_delete"
		if d.Writes != writes[d.Name] || d.AutoApproved != (d.Name == "note_create") || previews != wantPreview {
			t.Errorf("%s: writes %v, auto %v, previews %v", d.Name, d.Writes, d.AutoApproved, previews)
		}
	}
	call(t, reg, "note_create", map[string]string{"title": "P", "content": "old line\n", "tags": "x"})
	up, _ := reg.Lookup("note_update")
	preview := func(tool tools.Tool, raw map[string]string) (tools.Preview, *tools.Result) {
		t.Helper()
		in, res := tools.Validate(tool.Definition(), raw)
		if res != nil {
			t.Fatalf("validate %v: %+v", raw, res)
		}
		p, r, err := tool.(tools.Previewer).Preview(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		return p, r
	}
	p, r := preview(up, map[string]string{"note_id": "1", "content": "new line\n", "tags": "y"})
	if r != nil || !strings.Contains(p.Diff, "-old line") || !strings.Contains(p.Diff, "+new line") || !strings.Contains(strings.Join(p.Lines, "\n"), "tags: [x] -> [y]") || p.Summary != `update note 1 "P"` {
		t.Errorf("update preview = %+v, %+v", p, r)
	}
	if _, r := preview(up, map[string]string{"note_id": "7", "content": "x"}); r == nil || r.Code != notes.CodeNotFound {
		t.Errorf("preview of a missing note = %+v, want NOTE_NOT_FOUND", r)
	}
	if _, r := preview(up, map[string]string{"note_id": "1", "title": " "}); r == nil || r.Code != tools.CodeSchemaInvalid {
		t.Errorf("preview of an empty title = %+v, want TOOL_SCHEMA_INVALID", r)
	}
	del, _ := reg.Lookup("note_delete")
	if p, r := preview(del, map[string]string{"note_id": "1"}); r != nil || !strings.Contains(p.Diff, "-old line") {
		t.Errorf("delete preview = %+v, %+v", p, r)
	}
	// A preview changes nothing.
	if r := call(t, reg, "note_get", map[string]string{"note_id": "1"}); r.Content != "old line\n" {
		t.Errorf("after previews the note is %q", r.Content)
	}
}

// TestCatalogBudget keeps the six catalog entries short. The rendering
// follows the prompt's catalog: a heading, the description, one line per
// parameter.
func TestCatalogBudget(t *testing.T) {
	reg, _ := newReg(t)
	total := 0
	for _, tool := range reg.Tools() {
		d := tool.Definition()
		var b strings.Builder
		b.WriteString("\n## " + d.Name + "\n" + d.Description + "\n")
		for _, p := range d.Params {
			b.WriteString("- " + p.Name)
			var tags []string
			if p.Required {
				tags = append(tags, "required")
			}
			switch {
			case p.Kind == tools.Enum:
				tags = append(tags, strings.Join(p.Enum, "|"))
			case p.Kind != tools.String:
				tags = append(tags, p.Kind.String())
			}
			if len(tags) > 0 {
				b.WriteString(" (" + strings.Join(tags, ", ") + ")")
			}
			if p.Description != "" {
				b.WriteString(": " + p.Description)
			}
			b.WriteString("\n")
		}
		total += b.Len()
	}
	if total >= 2400 {
		t.Errorf("the note tools take %d bytes of catalog, want under 2400", total)
	}
	t.Logf("catalog: %d bytes", total)
}

// Package notestest is the conformance suite every notes.Store backend
// must pass, and a generator of realistic note corpora for benchmarks.
package notestest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/tools/notes"
)

// Run runs the conformance suite. open returns a new, empty store; Run
// closes it.
func Run(t *testing.T, open func(t *testing.T) notes.Store) {
	cases := []struct {
		name string
		fn   func(t *testing.T, s notes.Store)
	}{
		{"CreateGet", testCreateGet},
		{"Invalid", testInvalid},
		{"FolderNormalised", testFolders},
		{"TagsAreASet", testTags},
		{"UpdateModes", testUpdateModes},
		{"UpdateKeepsIdentity", testIdentity},
		{"Missing", testMissing},
		{"ListFiltersAndPages", testList},
		{"Import", testImport},
		{"SearchRanksTitleFirst", testRanking},
		{"SearchSyntax", testSyntax},
		{"SearchFallback", testFallback},
		{"SearchFilters", testSearchFilters},
		{"SearchFollowsChanges", testSearchChanges},
		{"SearchStems", testStemming},
		{"SearchTagsAndFolders", testTagsAndFolders},
		{"SearchPunctuatedWords", testPunctuated},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() { s.Close() })
			c.fn(t, s)
		})
	}
}

func create(t *testing.T, s notes.Store, title, content, folder string, tags ...string) notes.Note {
	t.Helper()
	n, err := s.Create(context.Background(), notes.NewNote{Title: title, Content: content, Folder: folder, Tags: tags})
	if err != nil {
		t.Fatalf("Create(%q): %v", title, err)
	}
	return n
}

func ptr[T any](v T) *T { return &v }

func testCreateGet(t *testing.T, s notes.Store) {
	ctx := context.Background()
	before := time.Now().Add(-time.Second)
	n, err := s.Create(ctx, notes.NewNote{Title: "  Plan  ", Content: "line one\nline two\n", Folder: "work/plans", Tags: []string{"B", "a", "#b"}, Session: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	if n.ID == 0 || n.Title != "Plan" || n.Folder != "/work/plans/" || !slices.Equal(n.Tags, []string{"a", "b"}) || n.Session != "s1" {
		t.Errorf("Create = %+v, want id set, title Plan, folder /work/plans/, tags [a b], session s1", n)
	}
	if n.CreatedAt.Before(before) || !n.CreatedAt.Equal(n.UpdatedAt) {
		t.Errorf("created_at %v, updated_at %v: want now and equal", n.CreatedAt, n.UpdatedAt)
	}
	got, err := s.Get(ctx, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != "line one\nline two\n" || !got.CreatedAt.Equal(n.CreatedAt) || !slices.Equal(got.Tags, n.Tags) || got.Title != n.Title {
		t.Errorf("Get = %+v, want %+v", got, n)
	}
}

func testInvalid(t *testing.T, s notes.Store) {
	ctx := context.Background()
	for _, n := range []notes.NewNote{
		{Title: " ", Content: "x"},
		{Title: "t", Folder: "a/../b"},
		{Title: "t", Content: "bad \x00 byte"},
		{Title: "t", Content: string([]byte{0xff, 0xfe})},
		{Title: strings.Repeat("t", notes.MaxTitle+1)},
	} {
		if _, err := s.Create(ctx, n); !errors.Is(err, notes.ErrInvalid) {
			t.Errorf("Create(%.40q) error = %v, want ErrInvalid", n.Title+"|"+n.Folder+"|"+n.Content, err)
		}
	}
	n := create(t, s, "t", "x", "")
	if _, err := s.Update(ctx, n.ID, notes.Change{Content: ptr("y"), Mode: "sideways"}); !errors.Is(err, notes.ErrInvalid) {
		t.Errorf("Update(mode sideways) error = %v, want ErrInvalid", err)
	}
	if _, err := s.Update(ctx, n.ID, notes.Change{Title: ptr("")}); !errors.Is(err, notes.ErrInvalid) {
		t.Errorf("Update(empty title) error = %v, want ErrInvalid", err)
	}
	if got, _ := s.Get(ctx, n.ID); got.Content != "x" || got.Title != "t" {
		t.Errorf("after refused updates the note is %+v, want unchanged", got)
	}
}

func testFolders(t *testing.T, s notes.Store) {
	for _, f := range []string{"a/b", "/a/b", "a//b/", " a / b "} {
		if n := create(t, s, "n "+f, "", f); n.Folder != "/a/b/" {
			t.Errorf("folder %q stored as %q, want /a/b/", f, n.Folder)
		}
	}
	create(t, s, "root", "", "")
	create(t, s, "root2", "", "/")
	got, err := s.Folders(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []notes.Count{{Name: "/", Notes: 2}, {Name: "/a/b/", Notes: 4}}
	if !slices.Equal(got, want) {
		t.Errorf("Folders() = %v, want %v", got, want)
	}
}

func testTags(t *testing.T, s notes.Store) {
	ctx := context.Background()
	create(t, s, "one", "", "", "x", "Y", "x")
	create(t, s, "two", "", "", "y")
	got, err := s.Tags(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []notes.Count{{Name: "x", Notes: 1}, {Name: "y", Notes: 2}}
	if !slices.Equal(got, want) {
		t.Errorf("Tags() = %v, want %v", got, want)
	}
}

func testUpdateModes(t *testing.T, s notes.Store) {
	ctx := context.Background()
	cases := []struct{ old, text, mode, want string }{
		{"a", "b", notes.Replace, "b"},
		{"a", "b", "", "b"},
		{"a", "b", notes.Append, "a\nb"},
		{"a\n", "b\n", notes.Append, "a\nb\n"},
		{"", "b", notes.Append, "b"},
		{"a", "b", notes.Prepend, "b\na"},
		{"a\n", "b\n", notes.Prepend, "b\na\n"},
	}
	for _, c := range cases {
		n := create(t, s, "m", c.old, "")
		got, err := s.Update(ctx, n.ID, notes.Change{Content: ptr(c.text), Mode: c.mode})
		if err != nil {
			t.Fatalf("Update(%q, %s): %v", c.text, c.mode, err)
		}
		stored, _ := s.Get(ctx, n.ID)
		if got.Content != c.want || stored.Content != c.want {
			t.Errorf("%s %q onto %q = %q (stored %q), want %q", c.mode, c.text, c.old, got.Content, stored.Content, c.want)
		}
	}
}

func testIdentity(t *testing.T, s notes.Store) {
	ctx := context.Background()
	n, err := s.Create(ctx, notes.NewNote{Title: "keep", Content: "v1", Folder: "f", Tags: []string{"feedback", "collection:memory"}, Session: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond)
	u, err := s.Update(ctx, n.ID, notes.Change{Content: ptr("v2")})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := s.Get(ctx, n.ID)
	for _, g := range []notes.Note{u, got} {
		if g.ID != n.ID || !g.CreatedAt.Equal(n.CreatedAt) || !slices.Equal(g.Tags, n.Tags) || g.Title != "keep" || g.Folder != "/f/" || g.Session != "s1" {
			t.Errorf("after update %+v, want identity of %+v kept", g, n)
		}
		if !g.UpdatedAt.After(n.UpdatedAt) || g.Content != "v2" {
			t.Errorf("after update updated_at %v (was %v), content %q: want later, v2", g.UpdatedAt, n.UpdatedAt, g.Content)
		}
	}
	u, err = s.Update(ctx, n.ID, notes.Change{Tags: &[]string{"new"}, Title: ptr("renamed"), Folder: ptr("/g")})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(u.Tags, []string{"new"}) || u.Title != "renamed" || u.Folder != "/g/" || u.Content != "v2" {
		t.Errorf("metadata update = %+v, want tags [new], title renamed, folder /g/, content v2", u)
	}
}

func testMissing(t *testing.T, s notes.Store) {
	ctx := context.Background()
	if _, err := s.Get(ctx, 999); !errors.Is(err, notes.ErrNotFound) {
		t.Errorf("Get(999) error = %v, want ErrNotFound", err)
	}
	if _, err := s.Update(ctx, 999, notes.Change{Content: ptr("x")}); !errors.Is(err, notes.ErrNotFound) {
		t.Errorf("Update(999) error = %v, want ErrNotFound", err)
	}
	if _, err := s.Delete(ctx, 999); !errors.Is(err, notes.ErrNotFound) {
		t.Errorf("Delete(999) error = %v, want ErrNotFound", err)
	}
	n := create(t, s, "gone", "", "")
	if d, err := s.Delete(ctx, n.ID); err != nil || d.Title != "gone" {
		t.Errorf("Delete = %+v, %v; want the note", d, err)
	}
	if _, err := s.Get(ctx, n.ID); !errors.Is(err, notes.ErrNotFound) {
		t.Errorf("Get after Delete error = %v, want ErrNotFound", err)
	}
}

func testList(t *testing.T, s notes.Store) {
	ctx := context.Background()
	for i := range 7 {
		folder, tag := "/a/", "odd"
		if i%2 == 0 {
			folder, tag = "/a/b/", "even"
		}
		create(t, s, "n", "body", folder, tag)
	}
	create(t, s, "other", "", "/ab/")
	page, err := s.List(ctx, notes.ListOptions{Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 8 || len(page.Notes) != 3 || page.Notes[0].Title != "other" || page.Notes[0].Content != "" {
		t.Errorf("List(limit 3) = total %d, %d notes, first %q; want 8, 3, other, without content", page.Total, len(page.Notes), page.Notes[0].Title)
	}
	seen := map[int64]bool{}
	for off := 0; off < 8; off += 3 {
		p, err := s.List(ctx, notes.ListOptions{Limit: 3, Offset: off})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range p.Notes {
			if seen[n.ID] {
				t.Errorf("note %d on two pages", n.ID)
			}
			seen[n.ID] = true
		}
	}
	if len(seen) != 8 {
		t.Errorf("pages covered %d notes, want 8", len(seen))
	}
	count := func(o notes.ListOptions) int {
		p, err := s.List(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		if p.Total != len(p.Notes) {
			t.Errorf("List(%+v): total %d but %d notes", o, p.Total, len(p.Notes))
		}
		return p.Total
	}
	for _, c := range []struct {
		o    notes.ListOptions
		want int
	}{
		{notes.ListOptions{Folder: "a"}, 7},    // with its subfolder, not /ab/
		{notes.ListOptions{Folder: "/a/b"}, 4}, // the subfolder alone
		{notes.ListOptions{Tag: "Even"}, 4},    // tags are lowercase
		{notes.ListOptions{Tag: "odd", Folder: "a/b"}, 0},
		{notes.ListOptions{Folder: "/"}, 8},
		{notes.ListOptions{Tag: "none"}, 0},
	} {
		if got := count(c.o); got != c.want {
			t.Errorf("List(%+v) total = %d, want %d", c.o, got, c.want)
		}
	}
}

func testImport(t *testing.T, s notes.Store) {
	ctx := context.Background()
	batch := make([]notes.NewNote, 500)
	for i := range batch {
		batch[i] = notes.NewNote{Title: "imported", Content: "bulk words", Folder: "imp", Tags: []string{"bulk"}}
	}
	ids, err := s.Import(ctx, batch)
	if err != nil || len(ids) != 500 {
		t.Fatalf("Import = %d ids, %v", len(ids), err)
	}
	r, err := s.Search(ctx, notes.SearchOptions{Query: "bulk", Limit: 200})
	if err != nil || len(r.Hits) != 200 {
		t.Errorf("Search(bulk) = %d hits, %v; want 200 (the limit)", len(r.Hits), err)
	}
	if tags, err := s.Tags(ctx); err != nil || len(tags) != 1 || tags[0].Notes != 500 {
		t.Errorf("Tags after Import = %v, %v; want bulk on 500 notes", tags, err)
	}
	if p, err := s.List(ctx, notes.ListOptions{Folder: "/imp/", Tag: "bulk"}); err != nil || p.Total != 500 {
		t.Errorf("List(folder imp, tag bulk) after Import = %d, %v; want 500", p.Total, err)
	}
	n := create(t, s, "after the import", "bulk words too", "", "later")
	if r := search(t, s, notes.SearchOptions{Query: "tag:later"}); len(r.Hits) != 1 || r.Hits[0].Note.ID != n.ID {
		t.Errorf("a note created after an import is not indexed: %v", titles(r))
	}
	bad := append(batch[:2:2], notes.NewNote{Title: ""})
	if _, err := s.Import(ctx, bad); !errors.Is(err, notes.ErrInvalid) {
		t.Errorf("Import with an empty title error = %v, want ErrInvalid", err)
	}
	if p, _ := s.List(ctx, notes.ListOptions{}); p.Total != 501 {
		t.Errorf("after a refused import, %d notes, want 501 (all or none)", p.Total)
	}
}

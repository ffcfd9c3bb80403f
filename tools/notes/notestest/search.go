package notestest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools/notes"
)

func search(t *testing.T, s notes.Store, o notes.SearchOptions) notes.SearchResult {
	t.Helper()
	r, err := s.Search(context.Background(), o)
	if err != nil {
		t.Fatalf("Search(%q): %v", o.Query, err)
	}
	return r
}

func titles(r notes.SearchResult) []string {
	var out []string
	for _, h := range r.Hits {
		out = append(out, h.Note.Title)
	}
	return out
}

func testRanking(t *testing.T, s notes.Store) {
	create(t, s, "about gardening", "soil and seeds, water in the morning", "")
	create(t, s, "kitchen", "we talked about compost and gardening tools today", "")
	create(t, s, "unrelated", "nothing here", "")
	r := search(t, s, notes.SearchOptions{Query: "gardening"})
	if got := titles(r); len(got) != 2 || got[0] != "about gardening" {
		t.Fatalf("Search(gardening) = %v, want the title match first, then the content match", got)
	}
	if r.Hits[0].Score <= r.Hits[1].Score {
		t.Errorf("scores %v, %v: want the first higher", r.Hits[0].Score, r.Hits[1].Score)
	}
	if ex := r.Hits[1].Excerpt; !strings.Contains(ex, notes.MarkStart+"gardening"+notes.MarkEnd) {
		t.Errorf("excerpt %q does not mark the match", ex)
	}
	if r.Hits[0].Note.Content != "" || r.Hits[0].Note.Folder != "/" || r.Fallback != "" {
		t.Errorf("hit %+v, fallback %q: want metadata without content, no fallback", r.Hits[0].Note, r.Fallback)
	}
}

func testSyntax(t *testing.T, s notes.Store) {
	create(t, s, "a", "the quick brown fox", "")
	create(t, s, "b", "brown quick the fox", "")
	create(t, s, "c", "quickly now, slow fox", "")
	for _, c := range []struct {
		q    string
		want string
	}{
		{`"quick brown"`, "a"},
		{`quick*`, "a b c"},
		{`fox NOT brown`, "c"},
		{`brown OR slow`, "a b c"},
		{`title:b`, "b"},
	} {
		r := search(t, s, notes.SearchOptions{Query: c.q})
		got := strings.Fields(c.want)
		have := titles(r)
		if !sameSet(have, got) || r.Fallback != "" {
			t.Errorf("Search(%s) = %v (fallback %q), want %v and no fallback", c.q, have, r.Fallback, got)
		}
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, v := range m {
		if v != 0 {
			return false
		}
	}
	return true
}

func testFallback(t *testing.T, s notes.Store) {
	create(t, s, "n1", "unbalanced quotes and near misses", "")
	create(t, s, "n2", "an or and an and", "")
	long := strings.Repeat("unbalanced words here, ", 500) // ~11 KB
	for _, c := range []struct {
		q      string
		hits   int
		hasMsg string
	}{
		{`"unbalanced`, 1, "plain words"},
		{`unbalanced NOT`, 1, "plain words"},
		{`*`, 0, "no words"},
		{`quotes (near`, 1, "plain words"},
		{`"`, 0, "no words"},
		{`title: `, 0, "plain words"},
		{long, 1, "longer than"},
	} {
		r, err := s.Search(context.Background(), notes.SearchOptions{Query: c.q})
		if err != nil {
			t.Errorf("Search(%.30q) error = %v, want a result", c.q, err)
			continue
		}
		if len(r.Hits) != c.hits || !strings.Contains(r.Fallback, c.hasMsg) {
			t.Errorf("Search(%.30q) = %d hits, fallback %q; want %d hits and a message with %q", c.q, len(r.Hits), r.Fallback, c.hits, c.hasMsg)
		}
		if strings.Contains(strings.ToLower(r.Fallback), "sql") {
			t.Errorf("Search(%.30q) fallback %q shows a SQL error", c.q, r.Fallback)
		}
	}
	if _, err := s.Search(context.Background(), notes.SearchOptions{Query: "  "}); !errors.Is(err, notes.ErrInvalid) {
		t.Errorf("Search(blank) error = %v, want ErrInvalid", err)
	}
}

func testSearchFilters(t *testing.T, s notes.Store) {
	create(t, s, "w1", "report draft", "/work/", "draft")
	create(t, s, "w2", "report final", "/work/sub/", "final")
	create(t, s, "h1", "report home", "/home/", "draft")
	for _, c := range []struct {
		o    notes.SearchOptions
		want string
	}{
		{notes.SearchOptions{Query: "report", Folder: "work"}, "w1 w2"},
		{notes.SearchOptions{Query: "report", Tag: "draft"}, "w1 h1"},
		{notes.SearchOptions{Query: "report", Tag: "draft", Folder: "/work"}, "w1"},
		{notes.SearchOptions{Query: "report", Limit: 1}, "?"},
	} {
		r := search(t, s, c.o)
		if c.want == "?" {
			if len(r.Hits) != 1 {
				t.Errorf("Search(limit 1) = %d hits", len(r.Hits))
			}
			continue
		}
		if got := titles(r); !sameSet(got, strings.Fields(c.want)) {
			t.Errorf("Search(%+v) = %v, want %s", c.o, got, c.want)
		}
	}
}

func testSearchChanges(t *testing.T, s notes.Store) {
	ctx := context.Background()
	n := create(t, s, "doc", "alpha content", "")
	if _, err := s.Update(ctx, n.ID, notes.Change{Content: ptr("beta content")}); err != nil {
		t.Fatal(err)
	}
	if r := search(t, s, notes.SearchOptions{Query: "alpha"}); len(r.Hits) != 0 {
		t.Errorf("old word still found after replace: %v", titles(r))
	}
	if r := search(t, s, notes.SearchOptions{Query: "beta"}); len(r.Hits) != 1 {
		t.Errorf("new word not found after replace: %v", titles(r))
	}
	if _, err := s.Update(ctx, n.ID, notes.Change{Content: ptr("gamma"), Mode: notes.Append, Title: ptr("renamed")}); err != nil {
		t.Fatal(err)
	}
	if r := search(t, s, notes.SearchOptions{Query: "gamma beta title:renamed"}); len(r.Hits) != 1 {
		t.Errorf("appended word and new title not found together: %v", titles(r))
	}
	if _, err := s.Delete(ctx, n.ID); err != nil {
		t.Fatal(err)
	}
	if r := search(t, s, notes.SearchOptions{Query: "beta"}); len(r.Hits) != 0 {
		t.Errorf("deleted note still found: %v", titles(r))
	}
}

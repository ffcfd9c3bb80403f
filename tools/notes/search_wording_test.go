package notes_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools/notes"
)

// TestFallbackWording: a query that is not valid syntax is searched as
// plain words, and one line says so: the query, why, and the words used.
func TestFallbackWording(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	for _, n := range []notes.NewNote{{Title: "logic", Content: "and or not"}, {Title: "hello", Content: "hello there"}} {
		if _, err := s.Create(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ q, want string }{
		{"AND OR", `"AND OR" is not valid search syntax (` + notes.Syntax + `); searched instead as plain words: AND, OR (all of them)`},
		{"hello NEAR(", `"hello NEAR(" is not valid search syntax (` + notes.Syntax + `); searched instead as plain words: hello, NEAR (any of them, since no note has all)`},
		{`"hello`, `"\"hello" is not valid search syntax (` + notes.Syntax + `); searched instead as plain words: hello`},
	} {
		r, err := s.Search(ctx, notes.SearchOptions{Query: c.q})
		if err != nil {
			t.Fatal(err)
		}
		if r.Fallback != c.want || len(r.Hits) != 1 {
			t.Errorf("Search(%q): %d hits, fallback\n%s\nwant 1 hit and\n%s", c.q, len(r.Hits), r.Fallback, c.want)
		}
	}
	// A long query is not repeated whole: the message stays one short line.
	r, err := s.Search(ctx, notes.SearchOptions{Query: strings.Repeat("a", 20_000)})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Fallback) > 300 || !strings.Contains(r.Fallback, "longer than") {
		t.Errorf("fallback of %d bytes: %.200s", len(r.Fallback), r.Fallback)
	}
}

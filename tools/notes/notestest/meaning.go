package notestest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/notes/embedding"
)

// RunMeaning runs the search-by-meaning suite: open returns a new, empty
// store that embeds with e. The embedder is the real client of each
// provider (Gemini's and the OpenAI-compatible one) talking to a fake
// server on 127.0.0.1.
func RunMeaning(t *testing.T, open func(t *testing.T, e notes.Embedder) notes.Store) {
	srv := NewEmbedServer()
	t.Cleanup(srv.Close)
	for _, provider := range []string{"gemini", "openai"} {
		base := srv.URL
		if provider == "openai" {
			base += "/v1"
		}
		e, err := embedding.New(embedding.Options{Provider: provider, BaseURL: base}, "")
		if err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			name string
			fn   func(t *testing.T, s notes.Store, srv *EmbedServer, e notes.Embedder)
		}{
			{"FindsWhatTextMisses", testMeaningFinds},
			{"HybridRanksBoth", testHybrid},
			{"FailureRollsBack", testEmbedFailure},
			{"UpdateReembeds", testReembed},
			{"ReindexFillsGaps", testReindex},
			{"LongNoteChunked", testLongNote},
		}
		for _, c := range cases {
			t.Run(provider+"/"+c.name, func(t *testing.T) {
				srv.SetFail(false)
				s := open(t, e)
				t.Cleanup(func() { s.Close() })
				c.fn(t, s, srv, e)
			})
		}
	}
}

func testMeaningFinds(t *testing.T, s notes.Store, _ *EmbedServer, e notes.Embedder) {
	create(t, s, "Release steps", "tag the commit, build, publish the binaries", "")
	create(t, s, "Groceries", "milk, eggs and bread", "")
	create(t, s, "Cat food", "the kitten eats twice a day", "")
	if r := search(t, s, notes.SearchOptions{Query: "deploy checklist", Mode: notes.ModeText}); len(r.Hits) != 0 {
		t.Fatalf("full-text search of deploy checklist found %v; the test needs it to miss", titles(r))
	}
	r := search(t, s, notes.SearchOptions{Query: "deploy checklist", Mode: notes.ModeMeaning})
	if len(r.Hits) == 0 || r.Hits[0].Note.Title != "Release steps" || r.Mode != notes.ModeMeaning || r.Hits[0].Match != "meaning" {
		t.Fatalf("meaning search of deploy checklist = %v (mode %s), want Release steps first", titles(r), r.Mode)
	}
	if r.Hits[0].Excerpt == "" || r.Hits[0].Note.Content != "" || r.Hits[0].Score <= 0 {
		t.Errorf("meaning hit %+v: want an excerpt of its chunk, no content, a positive score", r.Hits[0])
	}
	r = search(t, s, notes.SearchOptions{Query: "feline", Mode: notes.ModeMeaning, Limit: 1})
	if len(r.Hits) != 1 || r.Hits[0].Note.Title != "Cat food" {
		t.Errorf("meaning search of feline = %v, want Cat food", titles(r))
	}
}

func testHybrid(t *testing.T, s notes.Store, _ *EmbedServer, e notes.Embedder) {
	create(t, s, "Release steps", "tag the commit, build, publish", "")
	create(t, s, "Deploy checklist", "the deploy checklist lives here", "")
	create(t, s, "Groceries", "milk, eggs and bread", "")
	r := search(t, s, notes.SearchOptions{Query: "deploy checklist"}) // hybrid by default
	if r.Mode != notes.ModeHybrid {
		t.Errorf("default mode with embeddings = %s, want hybrid", r.Mode)
	}
	got := map[string]string{}
	for _, h := range r.Hits {
		got[h.Note.Title] = h.Match
	}
	if len(r.Hits) < 2 || r.Hits[0].Note.Title != "Deploy checklist" || got["Deploy checklist"] != "both" || got["Release steps"] != "meaning" {
		t.Errorf("hybrid search = %v (%v), want Deploy checklist first (found both ways), then Release steps (by meaning)", titles(r), got)
	}
	for i := 1; i < len(r.Hits); i++ {
		if r.Hits[i].Score > r.Hits[i-1].Score {
			t.Errorf("hybrid hits not in score order: %v", r.Hits)
		}
	}
}

func testEmbedFailure(t *testing.T, s notes.Store, srv *EmbedServer, e notes.Embedder) {
	ctx := context.Background()
	n := create(t, s, "Release steps", "tag the commit", "")
	srv.SetFail(true)
	if _, err := s.Create(ctx, notes.NewNote{Title: "Deploy checklist", Content: "new"}); !errors.Is(err, notes.ErrEmbedding) {
		t.Errorf("Create with the provider down = %v, want ErrEmbedding", err)
	}
	if _, err := s.Update(ctx, n.ID, notes.Change{Content: ptr("kitten photos")}); !errors.Is(err, notes.ErrEmbedding) {
		t.Errorf("Update with the provider down = %v, want ErrEmbedding", err)
	}
	srv.SetFail(false)
	if p, _ := s.List(ctx, notes.ListOptions{}); p.Total != 1 {
		t.Errorf("after a failed create, %d notes, want 1", p.Total)
	}
	if got, _ := s.Get(ctx, n.ID); got.Content != "tag the commit" || !got.UpdatedAt.Equal(n.UpdatedAt) {
		t.Errorf("after a failed update the note is %q (updated %v), want it as it was", got.Content, got.UpdatedAt)
	}
	r := search(t, s, notes.SearchOptions{Query: "deploy checklist", Mode: notes.ModeMeaning})
	if len(r.Hits) != 1 || r.Hits[0].Note.ID != n.ID {
		t.Errorf("after the failures the old vectors find %v, want the note", titles(r))
	}
	// A metadata change needs no embedding: it works with the provider down.
	srv.SetFail(true)
	defer srv.SetFail(false)
	if _, err := s.Update(ctx, n.ID, notes.Change{Tags: &[]string{"ops"}}); err != nil {
		t.Errorf("tag change with the provider down: %v", err)
	}
	if _, err := s.Search(ctx, notes.SearchOptions{Query: "x", Mode: notes.ModeMeaning}); !errors.Is(err, notes.ErrEmbedding) {
		t.Errorf("meaning search with the provider down = %v, want ErrEmbedding", err)
	}
}

func testReembed(t *testing.T, s notes.Store, _ *EmbedServer, e notes.Embedder) {
	ctx := context.Background()
	n := create(t, s, "Notes", "about my kitten", "")
	if _, err := s.Update(ctx, n.ID, notes.Change{Content: ptr("the release steps"), Mode: notes.Replace}); err != nil {
		t.Fatal(err)
	}
	if r := search(t, s, notes.SearchOptions{Query: "deploy checklist", Mode: notes.ModeMeaning, Limit: 1}); len(r.Hits) != 1 || r.Hits[0].Score < 0.5 {
		t.Errorf("after the update meaning search = %+v, want the note near", r.Hits)
	}
	if r := search(t, s, notes.SearchOptions{Query: "feline", Mode: notes.ModeMeaning, Limit: 1}); len(r.Hits) == 1 && r.Hits[0].Score > 0.3 {
		t.Errorf("the old content's vector is still there: %+v", r.Hits)
	}
}

func testReindex(t *testing.T, s notes.Store, srv *EmbedServer, e notes.Embedder) {
	ctx := context.Background()
	ids, err := s.Import(ctx, []notes.NewNote{{Title: "Release steps", Content: "tag, build"}, {Title: "Kitten", Content: "photos"}, {Title: "Car", Content: "service"}})
	if err != nil {
		t.Fatal(err)
	}
	create(t, s, "Embedded", "at once", "")
	if r := search(t, s, notes.SearchOptions{Query: "deploy checklist", Mode: notes.ModeMeaning}); containsTitle(r, "Release steps") {
		t.Fatalf("imported notes are embedded already: %v", titles(r))
	}
	ix, ok := s.(notes.Indexer)
	if !ok {
		t.Fatalf("%T is not an Indexer", s)
	}
	var last [2]int
	done, err := notes.Reindex(ctx, ix, e, func(d, total int) { last = [2]int{d, total} })
	if err != nil || done != len(ids) || last != [2]int{3, 3} {
		t.Fatalf("Reindex = %d, %v (last progress %v), want the 3 imported notes", done, err, last)
	}
	r := search(t, s, notes.SearchOptions{Query: "deploy checklist", Mode: notes.ModeMeaning, Limit: 1})
	if len(r.Hits) != 1 || r.Hits[0].Note.Title != "Release steps" {
		t.Errorf("after reindex meaning search = %v, want Release steps", titles(r))
	}
	if done, err := notes.Reindex(ctx, ix, e, nil); err != nil || done != 0 {
		t.Errorf("second Reindex = %d, %v; want nothing left", done, err)
	}
}

func containsTitle(r notes.SearchResult, title string) bool {
	for _, h := range r.Hits {
		if h.Note.Title == title {
			return true
		}
	}
	return false
}

func containsWord(s, w string) bool { return strings.Contains(strings.ToLower(s), w) }

func testLongNote(t *testing.T, s notes.Store, srv *EmbedServer, e notes.Embedder) {
	// A long note is embedded in pieces: the meaning of its end is found.
	long := strings.Repeat("plain filler words about nothing much at all.\n\n", 62) + // two pieces of 1,488 bytes
		strings.Repeat("At the very end the kitten sleeps. ", 25)
	before := len(srv.Texts())
	create(t, s, "Long", long, "")
	if n := len(srv.Texts()) - before; n != 3 {
		t.Errorf("a 3.8 KB note was embedded in %d pieces, want 3", n)
	}
	r := search(t, s, notes.SearchOptions{Query: "feline", Mode: notes.ModeMeaning, Limit: 1})
	if len(r.Hits) != 1 || r.Hits[0].Note.Title != "Long" || !containsWord(r.Hits[0].Excerpt, "kitten") {
		t.Errorf("meaning search of the long note's end = %+v, want it with the last piece as excerpt", r.Hits)
	}
}

package notes_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/notes/notestest"
)

// BenchmarkPostgresNotes imports the 100,000-note corpus (NOTES_BENCH_N)
// into a space of a throwaway PostgreSQL server, as agent notes import
// does, and measures the search's p50 and p99 for rare, medium and common
// words (as BenchmarkNotesSearch does for SQLite).
//
//	go test ./tools/notes -run '^$' -bench PostgresNotes -benchtime 20x
func BenchmarkPostgresNotes(b *testing.B) {
	ctx := context.Background()
	url, err := notestest.SharedPostgres(b).NewDatabase()
	if err != nil {
		b.Fatal(err)
	}
	s, err := notes.OpenPostgres(ctx, url, notes.Options{Space: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	c := notestest.NewCorpus(1)
	wall, _, err := importInto(ctx, s, c, benchNotes)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("import", func(b *testing.B) {
		for b.Loop() {
		}
		b.ReportMetric(float64(benchNotes)/wall.Seconds(), "notes/s")
	})
	queries := map[string][]string{}
	for class, share := range map[string]float64{"rare": 0.0005, "medium": 0.01, "common": 0.15} {
		// English stop words ("just", "the") are not searched: take the
		// ten nearest the share that are.
		for _, w := range c.Words(share, 40) {
			if r, err := s.Search(ctx, notes.SearchOptions{Query: w, Limit: 1}); err == nil && len(r.Hits) > 0 && len(queries[class]) < 10 {
				queries[class] = append(queries[class], w)
			}
		}
	}
	for _, class := range []string{"rare", "medium", "common"} {
		b.Run(class, func(b *testing.B) {
			var times []time.Duration
			for b.Loop() {
				for _, w := range queries[class] {
					start := time.Now()
					r, err := s.Search(ctx, notes.SearchOptions{Query: w, Limit: 20})
					times = append(times, time.Since(start))
					if err != nil || len(r.Hits) == 0 {
						b.Fatalf("Search(%s) = %d hits, %v", w, len(r.Hits), err)
					}
				}
			}
			p50, p99 := percentiles(times)
			b.ReportMetric(p50, "p50-ms")
			b.ReportMetric(p99, "p99-ms")
		})
	}
}

// BenchmarkHybrid measures hybrid search (full text and meaning fused)
// on the corpus with one 768-number vector a note (100,000 chunks), on
// SQLite (vectors ranked in process) and PostgreSQL (ranked in SQL). The
// vectors come from the fake word embedder in process, so only the
// stores are measured. It reports the p50 and p99 of a two-word query.
//
//	go test ./tools/notes -run '^$' -bench Hybrid -benchtime 20x
func BenchmarkHybrid(b *testing.B) {
	ctx := context.Background()
	e := notestest.WordEmbedder{Dims: 768}
	open := map[string]func() (notes.Store, error){
		"sqlite": func() (notes.Store, error) {
			return notes.OpenSQLite(ctx, b.TempDir()+"/notes.db", notes.Options{Embedder: e})
		},
		"postgres": func() (notes.Store, error) {
			url, err := notestest.SharedPostgres(b).NewDatabase()
			if err != nil {
				return nil, err
			}
			return notes.OpenPostgres(ctx, url, notes.Options{Space: "bench", Embedder: e})
		},
	}
	for _, backend := range []string{"sqlite", "postgres"} {
		b.Run(backend, func(b *testing.B) {
			s, err := open[backend]()
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			c := notestest.NewCorpus(1)
			if _, _, err := importInto(ctx, s, c, benchNotes); err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			done, err := notes.Reindex(ctx, s.(notes.Indexer), e, nil)
			if err != nil || done != benchNotes {
				b.Fatalf("Reindex = %d, %v", done, err)
			}
			b.ReportMetric(float64(done)/time.Since(start).Seconds(), "reindex-notes/s")
			words := c.Words(0.01, 20)
			rng := rand.New(rand.NewPCG(7, 7))
			var times []time.Duration
			for b.Loop() {
				q := strings.Join([]string{words[rng.IntN(len(words))], words[rng.IntN(len(words))]}, " ")
				t0 := time.Now()
				r, err := s.Search(ctx, notes.SearchOptions{Query: q, Mode: notes.ModeHybrid, Limit: 20})
				times = append(times, time.Since(t0))
				if err != nil || len(r.Hits) == 0 {
					b.Fatalf("Search(%s) = %d hits, %v", q, len(r.Hits), err)
				}
			}
			p50, p99 := percentiles(times)
			b.ReportMetric(p50, "p50-ms")
			b.ReportMetric(p99, "p99-ms")
		})
	}
}

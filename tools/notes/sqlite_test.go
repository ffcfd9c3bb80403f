package notes_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/notes/notestest"
)

func openTemp(t *testing.T) *notes.SQLite {
	t.Helper()
	s, err := notes.Open(context.Background(), filepath.Join(t.TempDir(), ".agent", "notes.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSQLiteConformance(t *testing.T) {
	notestest.Run(t, func(t *testing.T) notes.Store { return openTemp(t) })
}

func TestLazyConformance(t *testing.T) {
	notestest.Run(t, func(t *testing.T) notes.Store {
		return notes.OpenLazy(filepath.Join(t.TempDir(), "notes.db"))
	})
}

func TestLazyOpensOnFirstUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".agent", "notes.db")
	l := notes.OpenLazy(path)
	if _, err := os.Stat(path); err == nil {
		t.Fatal("OpenLazy created the file before any use")
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.List(context.Background(), notes.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("after first use: %v", err)
	}
	l.Close()
}

// TestSQLiteFoldsDiacritics: the SQLite index removes diacritics, so
// "cafe" finds "café" (PostgreSQL's english configuration keeps them).
func TestSQLiteFoldsDiacritics(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if _, err := s.Create(ctx, notes.NewNote{Title: "accents", Content: "a café near the station"}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"cafe", "café", "CAFÉ"} {
		if r, err := s.Search(ctx, notes.SearchOptions{Query: q}); err != nil || len(r.Hits) != 1 {
			t.Errorf("Search(%q) = %d hits, %v; want the note", q, len(r.Hits), err)
		}
	}
}

func TestSQLiteMeaning(t *testing.T) {
	notestest.RunMeaning(t, func(t *testing.T, e notes.Embedder) notes.Store {
		s, err := notes.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "notes.db"), notes.Options{Embedder: e})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

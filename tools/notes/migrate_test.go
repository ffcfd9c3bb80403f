package notes

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
)

// TestOpenMigratesOldSchema opens a database made by an agent of schema
// version 2 (plain unicode61 index of titles and contents) and finds its
// notes by stems and tags afterwards: the index is rebuilt in place,
// ids and the history kept.
func TestOpenMigratesOldSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations[:2] {
		if _, err := db.Exec(m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = 2; PRAGMA application_id = %d", applicationID)); err != nil {
		t.Fatal(err)
	}
	for i, n := range []struct{ title, content, tags string }{
		{"speed", "the proxy caches every answer", `["perf"]`},
		{"gone", "deleted before the upgrade", `[]`},
		{"plans", "release on friday", `["release-notes"]`},
	} {
		if _, err := db.Exec(insertNote, n.title, n.content, "/", n.tags, "", 1000+i, 1000+i); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`DELETE FROM notes WHERE id = 2`); err != nil {
		t.Fatal(err)
	}
	// The old index does not stem: "cache" misses "caches".
	var n int
	db.QueryRow(`SELECT count(*) FROM notes_fts WHERE notes_fts MATCH 'cache'`).Scan(&n)
	if n != 0 {
		t.Fatalf("the old schema already stems (%d hits)", n)
	}
	db.Close()

	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for q, want := range map[string]string{"cache": "speed", "perf": "speed", "release-notes": "plans", "tag:perf": "speed"} {
		r, err := s.Search(ctx, SearchOptions{Query: q})
		if err != nil || len(r.Hits) != 1 || r.Hits[0].Note.Title != want {
			t.Errorf("after the migration Search(%q) = %+v, %v; want %s", q, r.Hits, err, want)
		}
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
	created, err := s.Create(ctx, NewNote{Title: "new"})
	if err != nil || created.ID != 4 {
		t.Errorf("after the migration a new note got id %d (%v), want 4: ids are never reused", created.ID, err)
	}
	var version int
	s.db.QueryRow("PRAGMA user_version").Scan(&version)
	if version != len(migrations) {
		t.Errorf("user_version = %d, want %d", version, len(migrations))
	}
}

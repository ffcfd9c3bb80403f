package notes

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"testing"
)

// TestDeletedIDNeverReused: the newest note deleted, the next note gets
// a new id, not the deleted one's.
func TestDeletedIDNeverReused(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "notes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var last Note
	for i := range 3 {
		if last, err = s.Create(ctx, NewNote{Title: fmt.Sprint("note ", i), Content: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Delete(ctx, last.ID); err != nil {
		t.Fatal(err)
	}
	n, err := s.Create(ctx, NewNote{Title: "after", Content: "y"})
	if err != nil {
		t.Fatal(err)
	}
	if n.ID <= last.ID {
		t.Errorf("new note got id %d, want above the deleted %d", n.ID, last.ID)
	}
	ids, err := s.Import(ctx, []NewNote{{Title: "a", Content: "a"}})
	if err != nil || ids[0] <= n.ID {
		t.Errorf("Import = %v, %v, want an id above %d", ids, err, n.ID)
	}
}

// TestMigrateKeepsNotesAndRetiresIDs: a database of the first schema,
// whose newest note was deleted, is migrated in place: every note keeps
// its id, tags and place in the index, and the deleted id stays retired.
func TestMigrateKeepsNotesAndRetiresIDs(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "notes.db")
	u := url.URL{Scheme: "file", Path: path}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		migrations[0],
		fmt.Sprintf("PRAGMA user_version = 1; PRAGMA application_id = %d", applicationID),
		`INSERT INTO notes (title, content, folder, tags, created_at, updated_at) VALUES
			('alpha', 'apples and pears', '/fruit', '["food"]', 1, 1),
			('beta', 'bananas', '/', '[]', 2, 2),
			('gamma', 'grapes', '/', '[]', 3, 3)`,
		// Deleted as the store deletes: into the history first.
		`INSERT INTO note_history (note_id, op, title, content, folder, tags, updated_at, replaced_at)
			SELECT id, 'delete', title, content, folder, tags, updated_at, 4 FROM notes WHERE id = 3`,
		`DELETE FROM notes WHERE id = 3`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%.40s: %v", q, err)
		}
	}
	db.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Check(ctx); err != nil {
		t.Fatalf("after the migration: %v", err)
	}
	a, err := s.Get(ctx, 1)
	if err != nil || a.Title != "alpha" || a.Folder != "/fruit" || len(a.Tags) != 1 || a.Tags[0] != "food" {
		t.Errorf("note 1 = %+v, %v", a, err)
	}
	res, err := s.Search(ctx, SearchOptions{Query: "apples"})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Note.ID != 1 {
		t.Errorf("search after the migration = %+v, %v", res, err)
	}
	n, err := s.Create(ctx, NewNote{Title: "delta", Content: "dates"})
	if err != nil || n.ID != 4 {
		t.Errorf("new note = %d, %v, want id 4 (3 was deleted before the migration)", n.ID, err)
	}
	if tags, _ := s.Tags(ctx); len(tags) != 1 || tags[0].Name != "food" {
		t.Errorf("tags after the migration = %v", tags)
	}
}

package notes_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/notes/notestest"
)

// TestMigrateToPostgres copies a local store to PostgreSQL: ids, times,
// tags, history and vectors come along, ids stay unique afterwards, and
// a space that holds notes is refused.
func TestMigrateToPostgres(t *testing.T) {
	ctx := tools.WithInfo(context.Background(), tools.CallInfo{SessionID: "s1"})
	e := notestest.WordEmbedder{Dims: 32}
	local, err := notes.OpenSQLite(ctx, filepath.Join(t.TempDir(), "notes.db"), notes.Options{Embedder: e})
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	a, _ := local.Create(ctx, notes.NewNote{Title: "Release steps", Content: "v1", Folder: "/ops/", Tags: []string{"release"}, Session: "s1"})
	b, _ := local.Create(ctx, notes.NewNote{Title: "gone", Content: "soon deleted"})
	c, _ := local.Create(ctx, notes.NewNote{Title: "kept", Content: "x"})
	if _, err := local.Update(ctx, a.ID, notes.Change{Content: ptr("tag, build, publish")}); err != nil {
		t.Fatal(err)
	}
	if _, err := local.Delete(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	a, _ = local.Get(ctx, a.ID)
	d, err := local.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Notes) != 2 || len(d.History) != 2 || d.NextID != 4 || len(d.Chunks) != 2 {
		t.Fatalf("dump: %d notes, %d versions, %d chunks, next id %d", len(d.Notes), len(d.History), len(d.Chunks), d.NextID)
	}
	pg := openPG(t, notes.Options{Embedder: e})
	if err := pg.Load(ctx, d); err != nil {
		t.Fatal(err)
	}
	got, err := pg.Get(ctx, a.ID)
	if err != nil || got.Title != a.Title || got.Content != a.Content || !got.CreatedAt.Equal(a.CreatedAt) || !got.UpdatedAt.Equal(a.UpdatedAt) ||
		!slices.Equal(got.Tags, a.Tags) || got.Folder != "/ops/" || got.Session != "s1" {
		t.Errorf("migrated note = %+v (%v), want %+v", got, err, a)
	}
	if _, err := pg.Get(ctx, c.ID); err != nil {
		t.Error(err)
	}
	r, err := pg.Search(ctx, notes.SearchOptions{Query: "deploy checklist", Mode: notes.ModeMeaning, Limit: 1})
	if err != nil || len(r.Hits) != 1 || r.Hits[0].Note.ID != a.ID {
		t.Errorf("the migrated vectors: %+v, %v", r.Hits, err)
	}
	if n, err := pg.CountUnembedded(ctx, e.Model()); err != nil || n != 0 {
		t.Errorf("%d notes left to embed after the migration (%v), want 0", n, err)
	}
	next, err := pg.Create(ctx, notes.NewNote{Title: "after"})
	if err != nil || next.ID != 4 {
		t.Errorf("the first new note got id %d (%v), want 4: the deleted note's 2 is not reused", next.ID, err)
	}
	if err := pg.Load(ctx, d); !errors.Is(err, notes.ErrInvalid) {
		t.Errorf("Load into a space with notes = %v, want ErrInvalid", err)
	}
	if p, _ := pg.List(ctx, notes.ListOptions{}); p.Total != 3 {
		t.Errorf("after the refused load %d notes, want 3", p.Total)
	}
}

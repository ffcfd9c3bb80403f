package notes_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/notes/notestest"
)

// pgDB is one database on the package's PostgreSQL server, shared by the
// tests that work in spaces of their own.
var pgDB struct {
	once sync.Once
	url  string
	err  error
	n    atomic.Int64
}

func sharedPGURL(t *testing.T) string {
	t.Helper()
	pg := notestest.SharedPostgres(t)
	pgDB.once.Do(func() { pgDB.url, pgDB.err = pg.NewDatabase() })
	if pgDB.err != nil {
		t.Fatal(pgDB.err)
	}
	return pgDB.url
}

// openPG opens a store in a new space of the shared database.
func openPG(t *testing.T, o notes.Options) *notes.Postgres {
	t.Helper()
	url := sharedPGURL(t)
	if o.Space == "" {
		o.Space = fmt.Sprintf("space-%d", pgDB.n.Add(1))
	}
	p, err := notes.OpenPostgres(context.Background(), url, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestPostgresConformance(t *testing.T) {
	notestest.Run(t, func(t *testing.T) notes.Store { return openPG(t, notes.Options{}) })
}

func TestPostgresLazyConformance(t *testing.T) {
	url := sharedPGURL(t)
	notestest.Run(t, func(t *testing.T) notes.Store {
		space := fmt.Sprintf("lazy-%d", pgDB.n.Add(1))
		return notes.NewLazy(func(ctx context.Context) (notes.Store, error) {
			return notes.OpenPostgres(ctx, url, notes.Options{Space: space})
		})
	})
}

// TestPostgresSpaces: two projects on one database see only their own
// notes, each numbered from 1, unless a search asks for every space.
func TestPostgresSpaces(t *testing.T) {
	ctx := context.Background()
	a := openPG(t, notes.Options{Space: "alpha-" + t.Name()})
	b := openPG(t, notes.Options{Space: "beta-" + t.Name()})
	na, err := a.Create(ctx, notes.NewNote{Title: "plan", Content: "shared word zebra", Tags: []string{"x"}})
	if err != nil {
		t.Fatal(err)
	}
	nb, err := b.Create(ctx, notes.NewNote{Title: "other plan", Content: "shared word zebra"})
	if err != nil {
		t.Fatal(err)
	}
	if na.ID != 1 || nb.ID != 1 || na.Space != "alpha-"+t.Name() {
		t.Errorf("ids %d and %d (space %q), want 1 in each space", na.ID, nb.ID, na.Space)
	}
	if n, _ := b.Get(ctx, na.ID); n.Title != "other plan" {
		t.Errorf("b.Get(1) = %q, want b's own note", n.Title)
	}
	if _, err := b.Update(ctx, 2, notes.Change{Title: ptr("x")}); !errors.Is(err, notes.ErrNotFound) {
		t.Errorf("b.Update(a's next id) = %v, want ErrNotFound", err)
	}
	r, err := a.Search(ctx, notes.SearchOptions{Query: "zebra"})
	if err != nil || len(r.Hits) != 1 || r.Hits[0].Note.Title != "plan" {
		t.Errorf("a.Search(zebra) = %+v, %v; want a's note only", r.Hits, err)
	}
	r, err = a.Search(ctx, notes.SearchOptions{Query: "zebra", AllSpaces: true})
	if err != nil || len(r.Hits) < 2 {
		t.Errorf("a.Search(zebra, all spaces) = %+v, %v; want both", r.Hits, err)
	}
	if p, _ := b.List(ctx, notes.ListOptions{}); p.Total != 1 {
		t.Errorf("b.List total = %d, want 1", p.Total)
	}
	if tags, _ := b.Tags(ctx); len(tags) != 0 {
		t.Errorf("b.Tags = %v, want none (x is a's)", tags)
	}
	if _, err := notes.OpenPostgres(ctx, sharedPGURL(t), notes.Options{Space: " "}); !errors.Is(err, notes.ErrInvalid) {
		t.Errorf("OpenPostgres(blank space) = %v, want ErrInvalid", err)
	}
}

// TestPostgresIDsNeverReused: a deleted note's id is not given again.
func TestPostgresIDsNeverReused(t *testing.T) {
	ctx := context.Background()
	s := openPG(t, notes.Options{})
	n1, _ := s.Create(ctx, notes.NewNote{Title: "one"})
	n2, _ := s.Create(ctx, notes.NewNote{Title: "two"})
	if _, err := s.Delete(ctx, n2.ID); err != nil {
		t.Fatal(err)
	}
	n3, err := s.Create(ctx, notes.NewNote{Title: "three"})
	if err != nil || n3.ID != 3 || n1.ID != 1 {
		t.Errorf("ids %d, %d, %d (%v); want 1, 2, 3", n1.ID, n2.ID, n3.ID, err)
	}
}

// TestPostgresRefusesForeignSchema: a database with an agent_notes schema
// that is not ours, or a newer one, is refused and left alone.
func TestPostgresRefusesForeignSchema(t *testing.T) {
	pg := notestest.SharedPostgres(t)
	ctx := context.Background()
	for _, c := range []struct{ setup, want string }{
		{"CREATE SCHEMA agent_notes; CREATE TABLE agent_notes.accounts (id int)", "not the agent's notes"},
		{"CREATE SCHEMA agent_notes; CREATE TABLE agent_notes.schema_version (version int); INSERT INTO agent_notes.schema_version VALUES (99)", "newer"},
	} {
		url, err := pg.NewDatabase()
		if err != nil {
			t.Fatal(err)
		}
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, c.setup); err != nil {
			t.Fatal(err)
		}
		_, err = notes.OpenPostgres(ctx, url, notes.Options{Space: "p"})
		if !errors.Is(err, notes.ErrForeign) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("OpenPostgres on %q = %v, want ErrForeign saying %q", c.setup, err, c.want)
		}
		var tables int
		conn.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE schemaname = 'agent_notes'").Scan(&tables)
		if tables != 1 {
			t.Errorf("the refused database has %d tables in agent_notes, want its 1", tables)
		}
		conn.Close(ctx)
	}
}

// TestPostgresConcurrentMigration: agents opening a new database at once
// migrate it once, without an error.
func TestPostgresConcurrentMigration(t *testing.T) {
	url, err := notestest.SharedPostgres(t).NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := notes.OpenPostgres(context.Background(), url, notes.Options{Space: fmt.Sprint(i)})
			if err == nil {
				_, err = p.Create(context.Background(), notes.NewNote{Title: "n"})
				p.Close()
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestPostgresMeaning(t *testing.T) {
	notestest.RunMeaning(t, func(t *testing.T, e notes.Embedder) notes.Store {
		return openPG(t, notes.Options{Embedder: e})
	})
}

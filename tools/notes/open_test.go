package notes_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools/notes"
)

func TestOpenRefusesForeignFiles(t *testing.T) {
	dir := t.TempDir()
	random := make([]byte, 8192)
	rand.New(rand.NewSource(1)).Read(random)
	foreign := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO accounts (name) VALUES ('x')"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	foreignBytes, _ := os.ReadFile(foreign)
	header := append([]byte("SQLite format 3\x00"), make([]byte, 50)...)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"random.db", random, "not a SQLite database"},
		{"text.db", []byte("my notes, not a database\n"), "not a SQLite database"},
		{"truncated.db", header, "not a SQLite database"},
		{"other.db", foreignBytes, "another program's SQLite database"},
		{"damaged.db", append(append([]byte{}, foreignBytes[:100]...), random[:4000]...), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), c.name)
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := notes.Open(context.Background(), path)
			if err == nil {
				s.Close()
				t.Fatalf("Open(%s) succeeded, want an error", c.name)
			}
			if !errors.Is(err, notes.ErrForeign) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Open(%s) error = %v, want ErrForeign naming the file and saying %q", c.name, err, c.want)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, c.data) {
				t.Errorf("Open(%s) changed the file", c.name)
			}
			if _, err := os.Stat(path + "-wal"); err == nil {
				t.Errorf("Open(%s) left a -wal file", c.name)
			}
		})
	}
}

func TestOpenEmptyAndReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s, err := notes.Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(empty file) = %v, want a new store", err)
	}
	if _, err := s.Create(ctx, notes.NewNote{Title: "kept"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = notes.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n, err := s.Get(ctx, 1); err != nil || n.Title != "kept" {
		t.Errorf("after reopening: %+v, %v", n, err)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.db")
	s, err := notes.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, _ := sql.Open("sqlite", path)
	if _, err := db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := notes.Open(context.Background(), path); !errors.Is(err, notes.ErrForeign) || !strings.Contains(err.Error(), "newer") {
		t.Errorf("Open(newer schema) error = %v, want one saying it is newer", err)
	}
}

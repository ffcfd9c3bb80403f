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

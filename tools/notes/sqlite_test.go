package notes_test

import (
	"context"
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

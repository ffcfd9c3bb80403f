package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotesEditor runs add and edit on a terminal without text: the note
// opens in $EDITOR (here a sed that changes a word) and what it saves is
// stored.
func TestNotesEditor(t *testing.T) {
	db := filepath.Join(t.TempDir(), "notes.db")
	run := func(editor string, args ...string) (string, int) {
		t.Helper()
		t.Setenv("VISUAL", "")
		t.Setenv("EDITOR", editor)
		var out, errOut bytes.Buffer
		io := &streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, stdinTTY: true}
		code := execute(context.Background(), io, append([]string{"notes", "--db", db}, args...))
		return out.String() + errOut.String(), code
	}
	if out, code := run(`sh -c 'echo "# From the editor" > "$1"' sh`, "add"); code != 0 || !strings.Contains(out, `created note 1 "From the editor"`) {
		t.Fatalf("add with the editor = %d %s", code, out)
	}
	if out, code := run("sed -i s/editor/sed/", "edit", "1"); code != 0 || !strings.Contains(out, "updated note 1") {
		t.Fatalf("edit with the editor = %d %s", code, out)
	}
	if out, _ := run("true", "show", "1"); !strings.Contains(out, "# From the sed") {
		t.Errorf("after the edit: %s", out)
	}
	if out, code := run("true", "edit", "1"); code != 0 || !strings.Contains(out, "nothing changed") {
		t.Errorf("edit saved unchanged = %d %s, want nothing changed", code, out)
	}
	if out, code := run(`sh -c ': > "$1"' sh`, "edit", "1"); code != exitUsage || !strings.Contains(out, "empty") {
		t.Errorf("edit saved empty = %d %s, want a usage error", code, out)
	}
	if out, code := run("false", "add"); code != exitFailed || !strings.Contains(out, "editor false") {
		t.Errorf("failing editor = %d %s", code, out)
	}
	if out, _ := run("true", "show", "1"); !strings.Contains(out, "# From the sed") {
		t.Errorf("refused edits changed the note: %s", out)
	}
}

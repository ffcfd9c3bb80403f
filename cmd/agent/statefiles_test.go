package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateFilesPrivate: the session log, the file state beside it, the
// audit log and the notes database are the user's alone (0600, their
// folders 0700), whatever the umask lets through.
func TestStateFilesPrivate(t *testing.T) {
	h := newRunHarness(t, writeCall, "Done.")
	if _, errOut, code := h.run("--yes", "write it"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	var out, errOut bytes.Buffer
	d := newFactory(&streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	d.env = map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	cmd := newRootCmd(d)
	cmd.SetArgs([]string{"notes", "add", "--dir", h.dir, "a note"})
	if err := cmd.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("notes add: %v\n%s", err, errOut.String())
	}
	state := filepath.Join(h.dir, ".agent")
	files, dirs := 0, 0
	err := filepath.WalkDir(state, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(state, p)
		fi, err := e.Info()
		if err != nil {
			return err
		}
		switch {
		case rel == "." || rel == ".gitignore":
			return nil // shared with the team by design
		case e.IsDir():
			dirs++
			if fi.Mode().Perm()&0o077 != 0 {
				t.Errorf(".agent/%s/ has mode %v, want 0700", rel, fi.Mode().Perm())
			}
		default:
			files++
			t.Logf(".agent/%s %v", rel, fi.Mode().Perm())
			if fi.Mode().Perm()&0o077 != 0 {
				t.Errorf(".agent/%s has mode %v, want 0600", rel, fi.Mode().Perm())
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"notes.db", "audit.jsonl", "sessions"} {
		if _, err := os.Stat(filepath.Join(state, want)); err != nil {
			t.Errorf("the run and the note left no %s: %v", want, err)
		}
	}
	t.Logf("%d files and %d folders checked", files, dirs)
}

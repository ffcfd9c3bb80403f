package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNotesSettings(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "config.toml")
	load := func(toml string) (Config, error) {
		t.Helper()
		if err := os.WriteFile(file, []byte(toml), 0o644); err != nil {
			t.Fatal(err)
		}
		return Load(Input{Files: []string{file}, Env: map[string]string{"GEMINI_API_KEY": "k"}})
	}
	c, err := load("")
	if err != nil {
		t.Fatal(err)
	}
	if !c.NotesOn() || c.NotesPath("/p", "/home/u") != "/p/.agent/notes.db" {
		t.Errorf("defaults: on %v, path %s", c.NotesOn(), c.NotesPath("/p", "/home/u"))
	}
	c, err = load("[notes]\npath = \"~/all/notes.db\"\n[tools]\nnotes = false\n")
	if err != nil {
		t.Fatal(err)
	}
	if c.NotesOn() || c.NotesPath("/p", "/home/u") != "/home/u/all/notes.db" || c.Origin("tools.notes") != file {
		t.Errorf("configured: on %v, path %s, origin %s", c.NotesOn(), c.NotesPath("/p", "/home/u"), c.Origin("tools.notes"))
	}
	var b strings.Builder
	if err := c.Write(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "notes = false") || !strings.Contains(b.String(), `path = "~/all/notes.db"`) {
		t.Errorf("Write does not show the notes settings:\n%s", b.String())
	}
	if c, _ := load("[notes]\npath = \"db/n.db\"\n"); c.NotesPath("/p", "") != "/p/db/n.db" {
		t.Errorf("relative path = %s", c.NotesPath("/p", ""))
	}
	if _, err := load("[notes]\npaht = \"x\"\n"); err == nil || !strings.Contains(err.Error(), `unknown setting notes.paht in `) {
		t.Errorf("misspelt notes key: %v", err)
	}
	if _, err := load("[tools]\nnotse = true\n"); err == nil || !strings.Contains(err.Error(), "unknown setting") {
		t.Errorf("misspelt tools key: %v", err)
	}
}

// TestNotesPathNeedsTrust: a project's file may point the notes store
// elsewhere only once the project is trusted; tools.notes needs no trust.
func TestNotesPathNeedsTrust(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, ".agent", "config.toml")
	if err := os.MkdirAll(filepath.Dir(project), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(project, []byte("[notes]\npath = \"/elsewhere/n.db\"\n[tools]\nnotes = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, trusted := range []bool{false, true} {
		c, err := Load(Input{Files: []string{project}, Project: project, Trusted: trusted, Env: map[string]string{"GEMINI_API_KEY": "k"}})
		if err != nil {
			t.Fatal(err)
		}
		want := filepath.Join(root, ".agent", "notes.db")
		if trusted {
			want = "/elsewhere/n.db"
		}
		if got := c.NotesPath(root, ""); got != want || c.NotesOn() {
			t.Errorf("trusted %v: path %s, on %v; want %s, off", trusted, got, c.NotesOn(), want)
		}
	}
}

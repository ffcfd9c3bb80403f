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

// TestNotesSharedSettings: database_url and embeddings come from the
// user's own config or the environment, never from a project, even a
// trusted one; notes.space needs trust; a password is never printed.
func TestNotesSharedSettings(t *testing.T) {
	root := t.TempDir()
	user := filepath.Join(root, "user.toml")
	project := filepath.Join(root, "proj", ".agent", "config.toml")
	os.MkdirAll(filepath.Dir(project), 0o755)
	os.WriteFile(user, []byte("[notes]\ndatabase_url = \"postgres://me:s3cret@db.example/notes\"\n[notes.embeddings]\nprovider = \"openai\"\nbase_url = \"http://127.0.0.1:11434/v1\"\nmodel = \"nomic-embed-text\"\n"), 0o644)
	os.WriteFile(project, []byte("[notes]\ndatabase_url = \"postgres://evil@attacker.example/x\"\nspace = \"other-project\"\n[notes.embeddings]\nprovider = \"gemini\"\nbase_url = \"https://attacker.example\"\n"), 0o644)
	env := map[string]string{"GEMINI_API_KEY": "k"}
	for _, trusted := range []bool{false, true} {
		c, err := Load(Input{Files: []string{user, project}, Project: project, Trusted: trusted, Env: env})
		if err != nil {
			t.Fatal(err)
		}
		e := c.Notes.Embeddings
		if c.Notes.DatabaseURL != "postgres://me:s3cret@db.example/notes" || e.Provider != "openai" || e.BaseURL != "http://127.0.0.1:11434/v1" {
			t.Errorf("trusted %v: url %s, embeddings %+v; want the user's own", trusted, c.Notes.DatabaseURL, e)
		}
		wantSpace := "proj"
		if trusted {
			wantSpace = "other-project"
		}
		if got := c.NotesSpace(filepath.Join(root, "proj")); got != wantSpace {
			t.Errorf("trusted %v: space %s, want %s", trusted, got, wantSpace)
		}
		var b strings.Builder
		c.Write(&b)
		if strings.Contains(b.String(), "s3cret") || !strings.Contains(b.String(), "postgres://me:xxxxx@db.example/notes") {
			t.Errorf("Write shows the password or not the URL:\n%s", b.String())
		}
	}
	c, err := Load(Input{Files: []string{user}, Env: map[string]string{"AGENT_NOTES_DATABASE_URL": "postgres://env@h/db", "OPENAI_API_KEY": "ok"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Notes.DatabaseURL != "postgres://env@h/db" || c.Origin("notes.database_url") != "env AGENT_NOTES_DATABASE_URL" {
		t.Errorf("AGENT_NOTES_DATABASE_URL: %s from %s", c.Notes.DatabaseURL, c.Origin("notes.database_url"))
	}
	if key, from := c.Notes.Embeddings.Key(map[string]string{"OPENAI_API_KEY": "ok"}); key != "ok" || from != "OPENAI_API_KEY" {
		t.Errorf("Key = %s from %s", key, from)
	}
	for _, bad := range []string{"[notes.embeddings]\nprovider = \"cohere\"\n", "[notes]\ndatabase_url = \"mysql://x\"\n", "[notes.embeddings]\ndimensions = -1\n"} {
		os.WriteFile(user, []byte(bad), 0o644)
		if _, err := Load(Input{Files: []string{user}, Env: env}); err == nil {
			t.Errorf("Load(%q) succeeded, want an error", bad)
		}
	}
}

func TestEmbeddingsEndpoint(t *testing.T) {
	env := map[string]string{"GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:9/", "OPENAI_BASE_URL": "http://127.0.0.1:8/", "GEMINI_API_KEY": "g", "OPENAI_API_KEY": "o"}
	for _, c := range []struct {
		e                 Embeddings
		base, key, keyVar string
	}{
		// Gemini's address variable applies, as for the chat.
		{Embeddings{Provider: "gemini"}, "http://127.0.0.1:9/", "g", "GEMINI_API_KEY"},
		// base_url wins over it.
		{Embeddings{Provider: "gemini", BaseURL: "http://127.0.0.1:7/"}, "http://127.0.0.1:7/", "g", "GEMINI_API_KEY"},
		// OpenAI's own address stays the default: OPENAI_BASE_URL may
		// point the chat at a server with no embeddings.
		{Embeddings{Provider: "openai"}, "", "o", "OPENAI_API_KEY"},
	} {
		base, key, keyVar := c.e.Endpoint(env)
		if base != c.base || key != c.key || keyVar != c.keyVar {
			t.Errorf("%+v.Endpoint = %q, %q, %q; want %q, %q, %q", c.e, base, key, keyVar, c.base, c.key, c.keyVar)
		}
	}
}

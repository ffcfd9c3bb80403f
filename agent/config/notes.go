package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
)

// Notes configures the notes store.
type Notes struct {
	// Path is the notes database; "" means .agent/notes.db in the project.
	// Set it (for instance to ~/notes/notes.db) for one store shared by
	// every project. A relative path is relative to the project.
	Path string `toml:"path"`
	// DatabaseURL, when set, keeps the notes in PostgreSQL instead (a
	// postgres:// URL or libpq key=value settings); from the user's own
	// config or AGENT_NOTES_DATABASE_URL only, never a project's.
	DatabaseURL string `toml:"database_url"`
	// Space is the project's space in a shared database; "" means the
	// project folder's name.
	Space string `toml:"space"`
	// Embeddings turn on search by meaning; from the user's own config
	// only (it sends the notes' text to that provider).
	Embeddings Embeddings `toml:"embeddings"`
}

// Embeddings choose the model that embeds notes for search by meaning.
type Embeddings struct {
	// Provider is "gemini", "openai" (any OpenAI-compatible server,
	// Ollama's included), or "" for no embeddings.
	Provider string `toml:"provider"`
	// Model is the embedding model; "" is the provider's default.
	Model string `toml:"model"`
	// BaseURL is the server's address; "" is the provider's own.
	BaseURL string `toml:"base_url"`
	// Dimensions asks for vectors of this size; 0 is the model's own.
	Dimensions int `toml:"dimensions"`
}

// Key returns the embedding provider's key from env and the variable it
// came from; from names the variable to set when none is.
func (e Embeddings) Key(env map[string]string) (key, from string) {
	names := keyEnvs(e.Provider) // the provider's usual ones, as for chat
	for _, k := range names {
		if v := strings.TrimSpace(env[k]); v != "" {
			return v, k
		}
	}
	if len(names) > 0 {
		return "", names[0]
	}
	return "", ""
}

// Endpoint is where the embedding provider is reached and with what:
// notes.embeddings.base_url, or else the address variable of a
// Gemini-family preset (GOOGLE_GEMINI_BASE_URL, as for the chat; "" is
// the SDK's own address), and the key with the variable it came from
// (Key).
func (e Embeddings) Endpoint(env map[string]string) (baseURL, key, keyVar string) {
	baseURL = e.BaseURL
	if p, ok := LookupPreset(e.Provider); ok && baseURL == "" && p.Family == FamilyGemini {
		baseURL = strings.TrimSpace(env[p.URLEnv])
	}
	key, keyVar = e.Key(env)
	return baseURL, key, keyVar
}

// ToolSwitches turn groups of built-in tools on or off.
type ToolSwitches struct {
	// Notes offers the note_* tools to the model; nil means on.
	Notes *bool `toml:"notes"`
}

// NotesOn reports whether the note tools are offered to the model.
func (c *Config) NotesOn() bool { return c.Tools.Notes == nil || *c.Tools.Notes }

// NotesPath is the notes database for the project at root, with a
// leading ~/ of notes.path taken as home.
func (c *Config) NotesPath(root, home string) string {
	p := c.Notes.Path
	switch {
	case p == "":
		return filepath.Join(root, ".agent", "notes.db")
	case (p == "~" || strings.HasPrefix(p, "~/")) && home != "":
		return filepath.Join(home, p[1:])
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	}
	return filepath.Join(root, p)
}

// NotesSpace is the project's space in a shared notes database:
// notes.space, or the name of the project's folder.
func (c *Config) NotesSpace(root string) string {
	if s := strings.TrimSpace(c.Notes.Space); s != "" {
		return s
	}
	return filepath.Base(filepath.Clean(root))
}

// applyNotesEnv reads AGENT_NOTES_DATABASE_URL.
func (c *Config) applyNotesEnv(env map[string]string) {
	if v := strings.TrimSpace(env[NotesDatabaseEnv]); v != "" {
		c.Notes.DatabaseURL = v
		c.set("notes.database_url", "env "+NotesDatabaseEnv)
	}
}

// validateNotes checks the [notes] settings, naming the one at fault.
func (c *Config) validateNotes() error {
	if u := c.Notes.DatabaseURL; u != "" && !strings.HasPrefix(u, "postgres://") && !strings.HasPrefix(u, "postgresql://") && !strings.Contains(u, "=") {
		return fmt.Errorf("notes.database_url (from %s): use a postgres:// URL, like postgres://user@host/db", c.Origin("notes.database_url"))
	}
	e := c.Notes.Embeddings
	switch e.Provider {
	case "", "gemini", "openai":
	default:
		return fmt.Errorf("notes.embeddings.provider = %s (from %s): use gemini or openai (for any OpenAI-compatible server, Ollama's included)", strconv.Quote(e.Provider), c.Origin("notes.embeddings.provider"))
	}
	if e.BaseURL != "" {
		u, err := url.Parse(e.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("notes.embeddings.base_url = %s: use an http or https address", strconv.Quote(e.BaseURL))
		}
	}
	if e.Dimensions < 0 || e.Dimensions > 8192 {
		return fmt.Errorf("notes.embeddings.dimensions = %d: use 0 (the model's own) or a size up to 8192", e.Dimensions)
	}
	return nil
}

// maskURL hides the password of a database URL.
func maskURL(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
			return u.String()
		}
		return s
	}
	var out []string
	for _, f := range strings.Fields(s) {
		if strings.HasPrefix(f, "password=") {
			f = "password=xxxxx"
		}
		out = append(out, f)
	}
	return strings.Join(out, " ")
}

// writeNotes prints the notes settings for Write.
func (c *Config) writeNotes(b *strings.Builder, line func(key, value string)) {
	b.WriteString("\n[notes]\n")
	line("notes.path", strconv.Quote(c.Notes.Path))
	line("notes.database_url", strconv.Quote(maskURL(c.Notes.DatabaseURL)))
	line("notes.space", strconv.Quote(c.Notes.Space))
	b.WriteString("\n[notes.embeddings]\n")
	e := c.Notes.Embeddings
	line("notes.embeddings.provider", strconv.Quote(e.Provider))
	line("notes.embeddings.model", strconv.Quote(e.Model))
	line("notes.embeddings.base_url", strconv.Quote(e.BaseURL))
	line("notes.embeddings.dimensions", strconv.Itoa(e.Dimensions))
	b.WriteString("\n[tools]\n")
	line("tools.notes", strconv.FormatBool(c.NotesOn()))
}

package main

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/notes/embedding"
)

// openNotes opens the project's notes store as configured: PostgreSQL
// in the project's space when notes.database_url (or
// AGENT_NOTES_DATABASE_URL) is set, else the SQLite file (notes.path, or
// .agent/notes.db); with the embedder of [notes.embeddings] when set.
func openNotes(ctx context.Context, cfg config.Config, root string, env map[string]string) (notes.Store, error) {
	emb, err := notesEmbedder(cfg, env)
	if err != nil {
		return nil, err
	}
	if cfg.Notes.DatabaseURL != "" {
		return notes.OpenPostgres(ctx, cfg.Notes.DatabaseURL, notes.Options{Space: cfg.NotesSpace(root), Embedder: emb})
	}
	path := cfg.NotesPath(root, env["HOME"])
	if filepath.Dir(path) == filepath.Join(root, ".agent") {
		if err := ensureStateDir(root); err != nil {
			return nil, err
		}
	}
	return notes.OpenSQLite(ctx, path, notes.Options{Embedder: emb})
}

// notesEmbedder is the embedder of [notes.embeddings]; nil when no
// provider is set. A Gemini server address may also come from
// GOOGLE_GEMINI_BASE_URL, as for the chat.
func notesEmbedder(cfg config.Config, env map[string]string) (notes.Embedder, error) {
	e := cfg.Notes.Embeddings
	if e.Provider == "" {
		return nil, nil
	}
	base := e.BaseURL
	if base == "" && e.Provider == config.FamilyGemini {
		base = strings.TrimSpace(env["GOOGLE_GEMINI_BASE_URL"])
	}
	key, from := e.Key(env)
	emb, err := embedding.New(embedding.Options{Provider: e.Provider, Model: e.Model, BaseURL: base, APIKey: key, Dimensions: e.Dimensions}, from)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return emb, nil
}

// lazyNotes is the project's notes store, opened (or connected to) on
// first use, so that a run that never touches a note costs nothing.
func lazyNotes(cfg config.Config, root string, env map[string]string) *notes.Lazy {
	return notes.NewLazy(func(ctx context.Context) (notes.Store, error) { return openNotes(ctx, cfg, root, env) })
}

package app

import (
	"context"
	"path/filepath"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/notes/embedding"
)

// OpenNotes opens the project's notes store as configured: PostgreSQL
// in the project's space when notes.database_url (or
// AGENT_NOTES_DATABASE_URL) is set, else the SQLite file (notes.path, or
// .agent/notes.db, the state folder made first); with the embedder of
// [notes.embeddings] when set.
func OpenNotes(ctx context.Context, cfg config.Config, root string, env map[string]string) (notes.Store, error) {
	emb, err := NotesEmbedder(cfg, env)
	if err != nil {
		return nil, err
	}
	path := cfg.NotesPath(root, env["HOME"])
	if cfg.Notes.DatabaseURL == "" && filepath.Dir(path) == filepath.Join(root, ".agent") {
		if err := conversation.EnsureStateDir(root); err != nil {
			return nil, err
		}
	}
	return notes.OpenEither(ctx, cfg.Notes.DatabaseURL, path, notes.Options{Space: cfg.NotesSpace(root), Embedder: emb})
}

// NotesEmbedder is the embedder of [notes.embeddings]; nil when no
// provider is set.
func NotesEmbedder(cfg config.Config, env map[string]string) (notes.Embedder, error) {
	e := cfg.Notes.Embeddings
	if e.Provider == "" {
		return nil, nil
	}
	base, key, keyVar := e.Endpoint(env)
	emb, err := embedding.New(embedding.Options{Provider: e.Provider, Model: e.Model, BaseURL: base, APIKey: key, Dimensions: e.Dimensions}, keyVar)
	if err != nil {
		return nil, conversation.UsageErrorf("%v", err)
	}
	return emb, nil
}

// LazyNotes is the project's notes store, opened (or connected to) on
// first use, so that a run that never touches a note costs nothing.
func LazyNotes(cfg config.Config, root string, env map[string]string) *notes.Lazy {
	return notes.NewLazy(func(ctx context.Context) (notes.Store, error) { return OpenNotes(ctx, cfg, root, env) })
}

package notes

import (
	"context"
	"sync"
)

// Lazy is a Store that opens its SQLite file on first use, so that a
// command that never touches a note neither pays for opening the database
// nor creates .agent/notes.db. A failed open is retried by the next call.
type Lazy struct {
	path string
	mu   sync.Mutex
	s    *SQLite
}

var _ Store = (*Lazy)(nil)

// OpenLazy returns a Store for the database at path, opened when first
// used.
func OpenLazy(path string) *Lazy { return &Lazy{path: path} }

func (l *Lazy) store(ctx context.Context) (*SQLite, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.s != nil {
		return l.s, nil
	}
	s, err := Open(ctx, l.path)
	if err != nil {
		return nil, err
	}
	l.s = s
	return s, nil
}

// Close closes the database if it was opened.
func (l *Lazy) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.s == nil {
		return nil
	}
	err := l.s.Close()
	l.s = nil
	return err
}

// Create implements Store.
func (l *Lazy) Create(ctx context.Context, n NewNote) (Note, error) {
	s, err := l.store(ctx)
	if err != nil {
		return Note{}, err
	}
	return s.Create(ctx, n)
}

// Import implements Store.
func (l *Lazy) Import(ctx context.Context, ns []NewNote) ([]int64, error) {
	s, err := l.store(ctx)
	if err != nil {
		return nil, err
	}
	return s.Import(ctx, ns)
}

// Get implements Store.
func (l *Lazy) Get(ctx context.Context, id int64) (Note, error) {
	s, err := l.store(ctx)
	if err != nil {
		return Note{}, err
	}
	return s.Get(ctx, id)
}

// Update implements Store.
func (l *Lazy) Update(ctx context.Context, id int64, c Change) (Note, error) {
	s, err := l.store(ctx)
	if err != nil {
		return Note{}, err
	}
	return s.Update(ctx, id, c)
}

// Delete implements Store.
func (l *Lazy) Delete(ctx context.Context, id int64) (Note, error) {
	s, err := l.store(ctx)
	if err != nil {
		return Note{}, err
	}
	return s.Delete(ctx, id)
}

// List implements Store.
func (l *Lazy) List(ctx context.Context, o ListOptions) (Page, error) {
	s, err := l.store(ctx)
	if err != nil {
		return Page{}, err
	}
	return s.List(ctx, o)
}

// Search implements Store.
func (l *Lazy) Search(ctx context.Context, o SearchOptions) (SearchResult, error) {
	s, err := l.store(ctx)
	if err != nil {
		return SearchResult{}, err
	}
	return s.Search(ctx, o)
}

// Folders implements Store.
func (l *Lazy) Folders(ctx context.Context) ([]Count, error) {
	s, err := l.store(ctx)
	if err != nil {
		return nil, err
	}
	return s.Folders(ctx)
}

// Tags implements Store.
func (l *Lazy) Tags(ctx context.Context) ([]Count, error) {
	s, err := l.store(ctx)
	if err != nil {
		return nil, err
	}
	return s.Tags(ctx)
}

package notes

import (
	"context"
	"sync"
)

// Lazy is a Store that opens its backend on first use, so that a command
// that never touches a note neither pays for opening the database nor
// creates .agent/notes.db (nor connects to PostgreSQL). A failed open is
// retried by the next call.
type Lazy struct {
	open func(context.Context) (Store, error)
	mu   sync.Mutex
	s    Store
}

var (
	_ Store   = (*Lazy)(nil)
	_ Indexer = (*Lazy)(nil)
)

// OpenLazy returns a Store for the SQLite database at path, opened when
// first used.
func OpenLazy(path string) *Lazy {
	return NewLazy(func(ctx context.Context) (Store, error) { return Open(ctx, path) })
}

// NewLazy returns a Store that calls open when first used.
func NewLazy(open func(context.Context) (Store, error)) *Lazy { return &Lazy{open: open} }

func (l *Lazy) store(ctx context.Context) (Store, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.s != nil {
		return l.s, nil
	}
	s, err := l.open(ctx)
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

// Unembedded implements Indexer.
func (l *Lazy) Unembedded(ctx context.Context, model string, after int64, limit int) ([]Note, error) {
	ix, err := l.indexer(ctx)
	if err != nil {
		return nil, err
	}
	return ix.Unembedded(ctx, model, after, limit)
}

// CountUnembedded implements Indexer.
func (l *Lazy) CountUnembedded(ctx context.Context, model string) (int, error) {
	ix, err := l.indexer(ctx)
	if err != nil {
		return 0, err
	}
	return ix.CountUnembedded(ctx, model)
}

func (l *Lazy) indexer(ctx context.Context) (Indexer, error) {
	s, err := l.store(ctx)
	if err != nil {
		return nil, err
	}
	ix, ok := s.(Indexer)
	if !ok {
		return nil, errNoIndexer
	}
	return ix, nil
}

// SetChunks implements Indexer.
func (l *Lazy) SetChunks(ctx context.Context, model string, es []Embedded) ([]int64, error) {
	ix, err := l.indexer(ctx)
	if err != nil {
		return nil, err
	}
	return ix.SetChunks(ctx, model, es)
}

var errNoIndexer = errorString("this notes store keeps no vectors")

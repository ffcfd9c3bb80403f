package notes

import (
	"context"
	"errors"
	"strings"
	"time"
)

// ErrNotFound is returned for a note id that does not exist.
var ErrNotFound = errors.New("note not found")

// ErrInvalid is wrapped by errors about a note's fields (an empty title,
// an unknown update mode, a folder with ".."): the caller's input is wrong.
var ErrInvalid = errors.New("invalid note")

// CodeNotFound is the protocol error code for a note id that does not
// exist.
const CodeNotFound = "NOTE_NOT_FOUND"

// Note is one stored note.
type Note struct {
	ID      int64    `json:"id"`
	Title   string   `json:"title"`
	Content string   `json:"content"`
	Folder  string   `json:"folder"`
	Tags    []string `json:"tags"`
	Session string   `json:"session,omitempty"` // the session that created it
	// Space is the project the note belongs to in a shared database
	// (PostgreSQL); "" in a project's own SQLite file.
	Space     string    `json:"space,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// NewNote is what Create stores. Folder and Tags are normalised.
type NewNote struct {
	Title   string
	Content string
	Folder  string
	Tags    []string
	Session string
}

// Update modes: how Change.Content combines with the note's content.
const (
	Replace = "replace"
	Append  = "append"
	Prepend = "prepend"
)

// Change is an update of a note. Nil fields stay as they are; the note
// keeps its id, created_at and session, and gets a new updated_at.
type Change struct {
	Content *string
	Mode    string // Replace (the default), Append or Prepend
	Title   *string
	Folder  *string
	Tags    *[]string
}

// ListOptions filter and page List.
type ListOptions struct {
	Folder string // this folder and its subfolders; "" or "/" is all
	Tag    string
	Limit  int // DefaultLimit when 0
	Offset int
}

// SearchOptions are a query and its filters.
type SearchOptions struct {
	Query  string
	Folder string
	Tag    string
	Limit  int // DefaultLimit when 0
	// Mode is ModeText, ModeMeaning or ModeHybrid; "" is hybrid when the
	// store has an Embedder, text otherwise.
	Mode string
	// AllSpaces searches every space of a shared database, not only the
	// store's own.
	AllSpaces bool
}

// Search modes: full-text, by meaning (embeddings), or both fused.
const (
	ModeText    = "text"
	ModeMeaning = "meaning"
	ModeHybrid  = "hybrid"
)

// Limits of List and Search.
const (
	DefaultLimit = 20
	MaxLimit     = 200
)

// Page is one page of a listing, newest update first. Notes carry no
// Content; Total counts every note that matches the filters.
type Page struct {
	Notes []Note `json:"notes"`
	Total int    `json:"total"`
}

// Hit is one search result: the note without its content, and an excerpt
// of the content with the matches between MarkStart and MarkEnd.
type Hit struct {
	Note    Note    `json:"note"`
	Excerpt string  `json:"excerpt"`
	Score   float64 `json:"score"` // higher is better
	// Match says how the note was found: "text", "meaning" or "both".
	Match string `json:"match,omitempty"`
}

// SearchResult is the ranked hits of a search, best first. Fallback is
// set when the query was not valid search syntax and was searched as
// plain words instead; it says so in words, with the query used.
type SearchResult struct {
	Hits     []Hit  `json:"hits"`
	Query    string `json:"query"` // the query searched
	Mode     string `json:"mode"`  // the mode searched in
	Fallback string `json:"fallback,omitempty"`
}

// Count is a folder or tag with its number of notes.
type Count struct {
	Name  string `json:"name"`
	Notes int    `json:"notes"`
}

// Store keeps notes. Every backend passes notestest.Run; the tools, the
// command line and the REST handler use nothing else.
type Store interface {
	Create(ctx context.Context, n NewNote) (Note, error)
	// Import creates many notes at once, all or none, much faster than
	// Create in a loop.
	Import(ctx context.Context, ns []NewNote) ([]int64, error)
	Get(ctx context.Context, id int64) (Note, error)
	Update(ctx context.Context, id int64, c Change) (Note, error)
	// Delete removes a note and returns it as it was.
	Delete(ctx context.Context, id int64) (Note, error)
	List(ctx context.Context, o ListOptions) (Page, error)
	Search(ctx context.Context, o SearchOptions) (SearchResult, error)
	// Folders lists the folders holding notes, with their own counts.
	Folders(ctx context.Context) ([]Count, error)
	Tags(ctx context.Context) ([]Count, error)
	Close() error
}

// Indexer is a Store whose notes can be embedded after the fact: what a
// bulk import stored unembedded, or what an older model embedded.
// Reindex drives it.
type Indexer interface {
	// Unembedded returns up to limit notes (with content) with ids above
	// after that have no vectors of model, in id order.
	Unembedded(ctx context.Context, model string, after int64, limit int) ([]Note, error)
	// CountUnembedded counts the notes that have no vectors of model.
	CountUnembedded(ctx context.Context, model string) (int, error)
	// SetChunks stores the chunks of each note, embedded by model, in
	// one transaction, except for the notes whose title or content
	// changed since they were read: it returns the ids it stored.
	SetChunks(ctx context.Context, model string, es []Embedded) ([]int64, error)
}

// Embedded is a note as it was read and the chunks of its text.
type Embedded struct {
	Note   Note
	Chunks []Chunk
}

// Marks around each match in Hit.Excerpt. They are control characters
// that notes do not hold, so the caller can replace them unambiguously.
const (
	MarkStart = "\x02"
	MarkEnd   = "\x03"
)

// Highlight replaces the match marks of an excerpt with open and close
// ("**" and "**" for a model, terminal colours for a person).
func Highlight(excerpt, open, close string) string {
	return strings.NewReplacer(MarkStart, open, MarkEnd, close).Replace(excerpt)
}

// HighlightShown is Highlight for a person: the excerpt's own text goes
// through show (escaped for a terminal, stripped for a pipe) while open
// and close, the caller's own codes, do not. A stray end mark is dropped.
func HighlightShown(excerpt, open, close string, show func(string) string) string {
	var b strings.Builder
	for i, part := range strings.Split(excerpt, MarkStart) {
		if i > 0 {
			if m, rest, ok := strings.Cut(part, MarkEnd); ok {
				b.WriteString(open + show(m) + close)
				part = rest
			}
		}
		b.WriteString(show(strings.ReplaceAll(part, MarkEnd, "")))
	}
	return b.String()
}

// ApplyMode combines old content with new text the way an update mode
// says. Append and prepend put a line break between the two when neither
// side has one, so that a line is never glued to another. Every backend
// uses it, so the modes mean the same everywhere.
func ApplyMode(old, text, mode string) (string, error) {
	switch mode {
	case "", Replace:
		return text, nil
	case Append:
		if old == "" || text == "" || strings.HasSuffix(old, "\n") || strings.HasPrefix(text, "\n") {
			return old + text, nil
		}
		return old + "\n" + text, nil
	case Prepend:
		if old == "" || text == "" || strings.HasSuffix(text, "\n") || strings.HasPrefix(old, "\n") {
			return text + old, nil
		}
		return text + "\n" + old, nil
	}
	return "", invalidf("unknown update mode %q: use replace, append or prepend", mode)
}

// OpenEither opens the store a configuration names: the PostgreSQL
// database at databaseURL when it is set (in o.Space), else the SQLite
// file at path.
func OpenEither(ctx context.Context, databaseURL, path string, o Options) (Store, error) {
	var s Store
	var err error
	if databaseURL != "" {
		s, err = OpenPostgres(ctx, databaseURL, o)
	} else {
		s, err = OpenSQLite(ctx, path, o)
	}
	if err != nil {
		return nil, err // not a typed nil inside the interface
	}
	return s, nil
}

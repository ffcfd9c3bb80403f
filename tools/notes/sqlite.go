package notes

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sync"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrForeign is wrapped by Open's error for a file that is not a notes
// database (random bytes, another program's SQLite file, a newer schema).
// Open changes nothing in such a file.
var ErrForeign = errors.New("not a notes database")

// applicationID marks a SQLite file as ours (PRAGMA application_id):
// "NOTE" in ASCII. It tells our database from another program's.
const applicationID = 0x4E4F5445

// busyTimeout is how long a statement waits for another process's write
// to finish before giving up: long enough that two agents writing notes
// on one project never see "database is locked".
const busyTimeoutMS = 15000

// SQLite is the Store on a SQLite file: WAL mode, so readers never wait
// for a writer and two processes can share the file; an FTS5 index kept
// in step with the notes by triggers.
type SQLite struct {
	db   *sql.DB
	path string
	emb  Embedder
	// stmts are the search's prepared statements, by their text: a
	// search then costs no parsing of SQL or of the FTS5 schema.
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
}

// Options configure a store when it is opened.
type Options struct {
	// Embedder embeds notes as they are created and updated, for search
	// by meaning; nil stores no vectors and searches text only.
	Embedder Embedder
	// Space is the store's space in a shared database (PostgreSQL):
	// the notes it creates, lists and searches. SQLite has no spaces.
	Space string
}

var _ Store = (*SQLite)(nil)

// DefaultPath is where a project's notes live, relative to its root.
const DefaultPath = ".agent/notes.db"

// Open opens (creating it if missing) the notes database at path and
// applies the schema migrations it lacks. A file that is not a notes
// database is refused with an error naming it (wrapping ErrForeign), and
// left exactly as it was; so is a database in a .agent folder reached
// through a symlink (wrapping ErrLinked).
func Open(ctx context.Context, path string) (*SQLite, error) {
	return OpenSQLite(ctx, path, Options{})
}

// OpenSQLite is Open with options.
func OpenSQLite(ctx context.Context, path string, o Options) (*SQLite, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("notes database %s: %w", path, err)
	}
	if err := checkLinks(abs); err != nil {
		return nil, err
	}
	fresh, err := checkHeader(abs)
	if err != nil {
		return nil, err
	}
	if fresh {
		// Notes are the user's own: the folder and the file are theirs
		// alone (SQLite gives its -wal and -shm files the database's
		// mode), whatever the umask.
		if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
			return nil, fmt.Errorf("notes database %s: %w", abs, err)
		}
		if f, err := os.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
			f.Close()
		} else if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("notes database %s: %w", abs, err)
		}
	}
	u := url.URL{Scheme: "file", Path: abs}
	dsn := u.String() + fmt.Sprintf("?_pragma=busy_timeout(%d)&_txlock=immediate&_pragma=synchronous(NORMAL)", busyTimeoutMS)
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("notes database %s: %w", abs, err)
	}
	db.SetMaxIdleConns(4)
	s := &SQLite{db: db, path: abs, emb: o.Embedder}
	if err := s.init(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Path is the database file.
func (s *SQLite) Path() string { return s.path }

// Close closes the database.
func (s *SQLite) Close() error {
	s.mu.Lock()
	for _, st := range s.stmts {
		st.Close()
	}
	s.stmts = nil
	s.mu.Unlock()
	return s.db.Close()
}

// query runs a search statement, prepared once per store.
func (s *SQLite) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s.mu.Lock()
	st, ok := s.stmts[query]
	if !ok {
		var err error
		if st, err = s.db.PrepareContext(ctx, query); err != nil {
			s.mu.Unlock()
			return nil, err
		}
		if s.stmts == nil {
			s.stmts = map[string]*sql.Stmt{}
		}
		s.stmts[query] = st
	}
	s.mu.Unlock()
	return st.QueryContext(ctx, args...)
}

// checkHeader reads the first 100 bytes of path, SQLite's file header, and
// refuses anything that is not an empty file or a SQLite file of ours (or
// one with no application id yet, which init checks for tables). It
// reports whether the file is missing or empty.
func checkHeader(path string) (fresh bool, err error) {
	// Look before opening: opening a FIFO waits for a writer forever.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		what := "not a regular file"
		if fi.IsDir() {
			what = "a folder"
		}
		return false, fmt.Errorf("notes database %s: %w: it is %s; move it away, or set notes.path to another file", path, ErrForeign, what)
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("notes database %s: %w", path, err)
	}
	defer f.Close()
	hdr := make([]byte, 100)
	n, err := io.ReadFull(f, hdr)
	if n == 0 && (err == io.EOF) {
		return true, nil
	}
	if err != nil || !bytes.HasPrefix(hdr, []byte("SQLite format 3\x00")) {
		return false, fmt.Errorf("notes database %s: %w: the file is not a SQLite database; move it away, or set notes.path to another file", path, ErrForeign)
	}
	version := binary.BigEndian.Uint32(hdr[60:])
	app := binary.BigEndian.Uint32(hdr[68:])
	switch {
	case app != 0 && app != applicationID:
		return false, fmt.Errorf("notes database %s: %w: it is another program's SQLite database (application id %#x); set notes.path to another file", path, ErrForeign, app)
	case app == applicationID && int(version) > len(migrations):
		return false, fmt.Errorf("notes database %s: %w: schema version %d is newer than this agent knows (%d); update the agent", path, ErrForeign, version, len(migrations))
	}
	return false, nil
}

// init checks the file's identity inside the database, switches to WAL and
// applies the migrations, all before any other statement runs.
func (s *SQLite) init(ctx context.Context) error {
	var app, tables int
	err := s.db.QueryRowContext(ctx, "SELECT (SELECT application_id FROM pragma_application_id), (SELECT count(*) FROM sqlite_schema)").Scan(&app, &tables)
	if err != nil {
		return s.openErr(err)
	}
	if app != applicationID && tables > 0 {
		return fmt.Errorf("notes database %s: %w: it is another program's SQLite database (%d tables, no notes schema); set notes.path to another file", s.path, ErrForeign, tables)
	}
	var mode string
	if err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode); err != nil {
		return s.openErr(err)
	}
	return s.migrate(ctx)
}

// openErr names the file in an error met while opening it.
func (s *SQLite) openErr(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) && (se.Code()&0xff == sqlite3.SQLITE_NOTADB || se.Code()&0xff == sqlite3.SQLITE_CORRUPT) {
		return fmt.Errorf("notes database %s: %w: the file is damaged or not a database (%v); move it away, or set notes.path to another file", s.path, ErrForeign, err)
	}
	return fmt.Errorf("notes database %s: %w", s.path, err)
}

// wrap names the file in a failure of the database itself.
func (s *SQLite) wrap(err error) error {
	if err == nil || errors.Is(err, ErrNotFound) || errors.Is(err, ErrInvalid) || errors.Is(err, ErrEmbedding) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("notes database %s: %w", s.path, err)
}

// migrate applies the migrations the file lacks, in one transaction, so a
// crash leaves the old schema or the new one.
func (s *SQLite) migrate(ctx context.Context) error {
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return s.openErr(err)
	}
	if version == len(migrations) {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.openErr(err)
	}
	defer tx.Rollback()
	// Read again under the write lock: another process may have migrated.
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return s.openErr(err)
	}
	if version > len(migrations) {
		return fmt.Errorf("notes database %s: %w: schema version %d is newer than this agent knows", s.path, ErrForeign, version)
	}
	for v := version; v < len(migrations); v++ {
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			return fmt.Errorf("notes database %s: migration %d: %w", s.path, v+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d; PRAGMA application_id = %d", len(migrations), applicationID)); err != nil {
		return s.openErr(err)
	}
	return s.wrap(tx.Commit())
}

package jobs

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"modernc.org/sqlite" // the SQLite driver, pure Go
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrForeign is wrapped by Open's error for a file that is not a jobs
// database; Open changes nothing in it.
var ErrForeign = errors.New("not a jobs database")

// ErrNotFound is returned for a job id that is not recorded.
var ErrNotFound = errors.New("no such job")

// applicationID marks a SQLite file as ours: "JOBS" in ASCII.
const applicationID = 0x4A4F4253

// busyTimeoutMS is how long a statement waits for another process's
// write: two agents on one project share the file.
const busyTimeoutMS = 15000

// keepEnded is how many ended jobs are kept; older ones are deleted with
// their logs when the database is opened.
const keepEnded = 200

// schema is the jobs table. The partial unique index makes a second
// active job with the same dedupe key impossible, whatever races.
const schema = `CREATE TABLE jobs (
	id          INTEGER PRIMARY KEY AUTOINCREMENT,
	dedupe_key  TEXT NOT NULL,
	tool        TEXT NOT NULL,
	args        TEXT NOT NULL,
	dir         TEXT NOT NULL,
	label       TEXT NOT NULL,
	status      TEXT NOT NULL,
	attempts    INTEGER NOT NULL DEFAULT 0,
	created_at  INTEGER NOT NULL,
	started_at  INTEGER NOT NULL DEFAULT 0,
	finished_at INTEGER NOT NULL DEFAULT 0,
	exit_code   INTEGER,
	summary     TEXT NOT NULL DEFAULT '',
	result_preview TEXT NOT NULL DEFAULT '',
	last_error  TEXT NOT NULL DEFAULT '',
	owner_pid   INTEGER NOT NULL,
	owner_start INTEGER NOT NULL,
	pid         INTEGER NOT NULL DEFAULT 0,
	pid_start   INTEGER NOT NULL DEFAULT 0,
	stop_requested INTEGER NOT NULL DEFAULT 0,
	log_dropped INTEGER NOT NULL DEFAULT 0,
	token       TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX jobs_active ON jobs(dedupe_key) WHERE status IN ('queued', 'running');
CREATE INDEX jobs_status ON jobs(status);`

// Store is the jobs database of one project.
type Store struct {
	db     *sql.DB
	path   string
	logDir string
}

// Open opens the jobs database at path (creating it, 0600, if missing),
// with the logs in logDir (created 0700 when a job starts), and marks
// lost the active jobs whose agent process is gone. A file that is not
// ours, or one reached through a symlink, is refused and left as it is.
func Open(ctx context.Context, path, logDir string) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("jobs database %s: %w", path, err)
	}
	for _, p := range []string{filepath.Dir(abs), abs, abs + "-wal", abs + "-shm", abs + "-journal", logDir} {
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("jobs database %s: %s is a symlink; the agent keeps its state only in real files inside the project: remove the link", abs, p)
		}
	}
	if err := checkHeader(abs); err != nil {
		return nil, err
	}
	// Made here, not by SQLite, to be 0600 (SQLite gives its -wal and
	// -shm files the database's mode).
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("jobs database %s: %w", abs, err)
	}
	f.Close()
	u := url.URL{Scheme: "file", Path: abs}
	dsn := u.String() + fmt.Sprintf("?_pragma=busy_timeout(%d)&_txlock=immediate&_pragma=synchronous(NORMAL)", busyTimeoutMS)
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("jobs database %s: %w", abs, err)
	}
	s := &Store{db: db, path: abs, logDir: logDir}
	if err := s.init(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.recover(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Path is the database file.
func (s *Store) Path() string { return s.path }

// checkHeader refuses a file that is not empty and not a SQLite file.
func checkHeader(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("jobs database %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("jobs database %s: %w: it is not a regular file; move it away", path, ErrForeign)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("jobs database %s: %w", path, err)
	}
	defer f.Close()
	hdr := make([]byte, 16)
	n, err := io.ReadFull(f, hdr)
	if n == 0 {
		return nil
	}
	if err != nil || !bytes.Equal(hdr, []byte("SQLite format 3\x00")) {
		return fmt.Errorf("jobs database %s: %w: the file is not a SQLite database; move it away", path, ErrForeign)
	}
	return nil
}

// init checks the file is ours (or empty), switches to WAL and creates
// the schema.
func (s *Store) init(ctx context.Context) error {
	var app, tables, version int
	err := s.db.QueryRowContext(ctx, "SELECT (SELECT application_id FROM pragma_application_id), (SELECT count(*) FROM sqlite_schema), (SELECT user_version FROM pragma_user_version)").Scan(&app, &tables, &version)
	if err != nil {
		return s.wrap(err)
	}
	if app != applicationID && (tables > 0 || app != 0) {
		return fmt.Errorf("jobs database %s: %w: it is another program's SQLite database; move it away", s.path, ErrForeign)
	}
	if version > 1 {
		return fmt.Errorf("jobs database %s: %w: schema version %d is newer than this agent knows; update the agent", s.path, ErrForeign, version)
	}
	if err := s.setWAL(ctx); err != nil {
		return s.wrap(err)
	}
	if version == 1 {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(err)
	}
	defer tx.Rollback()
	// Again under the write lock: another process may have made it.
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return s.wrap(err)
	}
	if version == 0 {
		if _, err := tx.ExecContext(ctx, schema+fmt.Sprintf(";PRAGMA user_version = 1; PRAGMA application_id = %d", applicationID)); err != nil {
			return s.wrap(err)
		}
	}
	return s.wrap(tx.Commit())
}

// setWAL switches the file to WAL mode, so readers never wait for a
// writer. The switch needs the file to itself and SQLite does not wait
// for that (no busy handler there): two agents opening a new database at
// once would fail, so a busy switch is tried again, within the busy
// timeout.
func (s *Store) setWAL(ctx context.Context) error {
	deadline := time.Now().Add(busyTimeoutMS * time.Millisecond)
	for {
		var mode string
		err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode)
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// wrap names the file in a failure of the database.
func (s *Store) wrap(err error) error {
	if err == nil || errors.Is(err, ErrNotFound) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("jobs database %s: %w", s.path, err)
}

// LogPath is the output file of job id.
func (s *Store) LogPath(id int64) string {
	return filepath.Join(s.logDir, strconv.FormatInt(id, 10)+".log")
}

// DefaultPath and DefaultLogDir are where a project keeps its jobs and
// their output, relative to its root.
const (
	DefaultPath   = ".agent/jobs.db"
	DefaultLogDir = ".agent/jobs"
)

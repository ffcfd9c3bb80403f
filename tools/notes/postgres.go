package notes

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Postgres is the Store on a PostgreSQL database that many agents share:
// each store works in its space (a project's), ids are per space, every
// change is one transaction with the note's row locked, and the search
// runs in SQL (tsvector with ts_rank and ts_headline; the nearest
// vectors picked in SQL by their sign bits, the few candidates ranked by
// their exact dot product in the agent).
type Postgres struct {
	pool  *pgxpool.Pool
	space string
	emb   Embedder
	name  string // the database, for messages, without its password
}

var (
	_ Store   = (*Postgres)(nil)
	_ Indexer = (*Postgres)(nil)
)

// pgLock is the advisory lock key that serializes migrations: "NOTE".
const pgLock = 0x4E4F5445

// pgConnectTimeout bounds connecting when the address sets no
// connect_timeout.
const pgConnectTimeout = 10 * time.Second

// MaxSpace bounds a space's name.
const MaxSpace = 200

// CheckSpace validates a space's name: not empty, at most MaxSpace bytes,
// no control characters.
func CheckSpace(space string) error {
	switch {
	case strings.TrimSpace(space) == "":
		return invalidf("the space is empty; name it (notes.space), like the project's folder")
	case len(space) > MaxSpace:
		return invalidf("the space name is %d bytes long; at most %d", len(space), MaxSpace)
	case strings.IndexFunc(space, unicode.IsControl) >= 0:
		return invalidf("the space name holds control characters")
	}
	return nil
}

// OpenPostgres connects to the database at url (a postgres:// URL or
// key=value settings, as libpq takes them; PGPASSWORD and ~/.pgpass
// work too) and applies the schema migrations it lacks. o.Space is the
// store's space. A database whose agent_notes schema is not ours, or is
// newer, is refused (ErrForeign) and left as it is.
func OpenPostgres(ctx context.Context, url string, o Options) (*Postgres, error) {
	if err := CheckSpace(o.Space); err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("notes database: the PostgreSQL address is not valid: %s", redact(err.Error(), url))
	}
	c := cfg.ConnConfig
	if c.ConnectTimeout == 0 {
		// An unreachable server fails the call in seconds, not minutes.
		c.ConnectTimeout = pgConnectTimeout
	}
	name := fmt.Sprintf("postgres %s@%s/%s", c.User, c.Host, c.Database)
	if !strings.HasPrefix(c.Host, "/") {
		name = fmt.Sprintf("postgres %s@%s:%d/%s", c.User, c.Host, c.Port, c.Database)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("notes database %s: %w", name, err)
	}
	p := &Postgres{pool: pool, space: o.Space, emb: o.Embedder, name: name}
	if err := p.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return p, nil
}

// redact removes url's password from a message.
func redact(msg, url string) string {
	if i := strings.Index(url, "://"); i >= 0 {
		if at := strings.LastIndex(url, "@"); at > i {
			if colon := strings.Index(url[i+3:at], ":"); colon >= 0 {
				pw := url[i+3+colon+1 : at]
				if pw != "" {
					msg = strings.ReplaceAll(msg, pw, "xxxxx")
				}
			}
		}
	}
	for _, f := range strings.Fields(url) {
		if k, v, ok := strings.Cut(f, "="); ok && k == "password" && v != "" {
			msg = strings.ReplaceAll(msg, v, "xxxxx")
		}
	}
	return msg
}

// Space is the store's space.
func (p *Postgres) Space() string { return p.space }

// Close closes the connections.
func (p *Postgres) Close() error {
	p.pool.Close()
	return nil
}

// wrap names the database in a failure of the database itself.
func (p *Postgres) wrap(err error) error {
	if err == nil || errors.Is(err, ErrNotFound) || errors.Is(err, ErrInvalid) || errors.Is(err, ErrEmbedding) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("notes database %s: %w", p.name, err)
}

// migrate applies the migrations the database lacks, in one transaction
// under an advisory lock, so that agents starting together migrate once
// and a failure leaves the old schema.
func (p *Postgres) migrate(ctx context.Context) error {
	if v, ok, err := p.version(ctx, p.pool); err != nil {
		return err
	} else if ok && v == len(pgMigrations) {
		return nil
	}
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return p.wrap(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", pgLock); err != nil {
		return p.wrap(err)
	}
	v, ok, err := p.version(ctx, tx)
	if err != nil {
		return err
	}
	if !ok {
		if _, err := tx.Exec(ctx, `CREATE SCHEMA `+pgSchema+`; CREATE TABLE `+pgSchema+`.schema_version (version int NOT NULL); INSERT INTO `+pgSchema+`.schema_version VALUES (0)`); err != nil {
			return p.wrap(err)
		}
	}
	for i := v; i < len(pgMigrations); i++ {
		if _, err := tx.Exec(ctx, pgMigrations[i]); err != nil {
			return fmt.Errorf("notes database %s: migration %d: %w", p.name, i+1, err)
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE `+pgSchema+`.schema_version SET version = $1`, len(pgMigrations)); err != nil {
		return p.wrap(err)
	}
	return p.wrap(tx.Commit(ctx))
}

type pgQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// version reads the schema version; ok is false when there is no notes
// schema yet. A schema of that name that is not ours, or a newer one, is
// ErrForeign.
func (p *Postgres) version(ctx context.Context, q pgQuerier) (int, bool, error) {
	var schema, table bool
	err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1), to_regclass($2) IS NOT NULL`,
		pgSchema, pgSchema+".schema_version").Scan(&schema, &table)
	if err != nil {
		return 0, false, p.wrap(err)
	}
	switch {
	case !schema:
		return 0, false, nil
	case !table:
		return 0, false, fmt.Errorf("notes database %s: %w: it has a schema %s that is not the agent's notes; use another database", p.name, ErrForeign, pgSchema)
	}
	var v int
	if err := q.QueryRow(ctx, `SELECT version FROM `+pgSchema+`.schema_version`).Scan(&v); err != nil {
		return 0, false, p.wrap(err)
	}
	if v > len(pgMigrations) {
		return 0, false, fmt.Errorf("notes database %s: %w: schema version %d is newer than this agent knows (%d); update the agent", p.name, ErrForeign, v, len(pgMigrations))
	}
	return v, true, nil
}

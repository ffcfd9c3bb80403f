package notes

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Dump is everything a SQLite store holds, to move it to PostgreSQL with
// its ids, times, history, tags and vectors.
type Dump struct {
	Notes   []Note
	History []Version
	Chunks  []StoredChunk
	// NextID is above every id the store ever gave, deleted notes' too.
	NextID int64
}

// Version is a replaced version of a note, from the history.
type Version struct {
	NoteID                     int64
	Op, Title, Content, Folder string
	Tags                       []string
	UpdatedAt, ReplacedAt      time.Time
	Session, ChangeSet         string
}

// StoredChunk is a chunk with its note, place and model.
type StoredChunk struct {
	NoteID int64
	Seq    int
	Model  string
	Chunk
}

// Dump reads the whole store in one read transaction.
func (s *SQLite) Dump(ctx context.Context) (*Dump, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, s.wrap(err)
	}
	defer tx.Rollback()
	d := &Dump{}
	rows, err := tx.QueryContext(ctx, `SELECT `+noteColumns+` FROM notes ORDER BY id`)
	if err != nil {
		return nil, s.wrap(err)
	}
	for rows.Next() {
		n, err := scanNote(rows.Scan)
		if err != nil {
			rows.Close()
			return nil, s.wrap(err)
		}
		d.Notes = append(d.Notes, n)
	}
	rows.Close()
	rows, err = tx.QueryContext(ctx, `SELECT note_id, op, title, content, folder, tags, updated_at, replaced_at, session, change_set FROM note_history ORDER BY id`)
	if err != nil {
		return nil, s.wrap(err)
	}
	for rows.Next() {
		var v Version
		var tags string
		var updated, replaced int64
		if err := rows.Scan(&v.NoteID, &v.Op, &v.Title, &v.Content, &v.Folder, &tags, &updated, &replaced, &v.Session, &v.ChangeSet); err != nil {
			rows.Close()
			return nil, s.wrap(err)
		}
		v.Tags = parseTagsJSON(tags)
		v.UpdatedAt, v.ReplacedAt = time.UnixMilli(updated).UTC(), time.UnixMilli(replaced).UTC()
		d.History = append(d.History, v)
	}
	rows.Close()
	rows, err = tx.QueryContext(ctx, `SELECT c.note_id, c.seq, c.model, c.span_start, c.span_end, v.vec FROM note_chunks c JOIN note_vectors v ON v.chunk_id = c.id ORDER BY c.note_id, c.seq`)
	if err != nil {
		return nil, s.wrap(err)
	}
	for rows.Next() {
		var c StoredChunk
		var vec []byte
		if err := rows.Scan(&c.NoteID, &c.Seq, &c.Model, &c.Start, &c.End, &vec); err != nil {
			rows.Close()
			return nil, s.wrap(err)
		}
		c.Vector = bytesVec(vec)
		d.Chunks = append(d.Chunks, c)
	}
	rows.Close()
	var seq int64
	_ = tx.QueryRowContext(ctx, `SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'notes'), 0)`).Scan(&seq)
	d.NextID = seq + 1
	for _, n := range d.Notes {
		d.NextID = max(d.NextID, n.ID+1)
	}
	for _, v := range d.History {
		d.NextID = max(d.NextID, v.NoteID+1)
	}
	return d, s.wrap(rows.Err())
}

// Load copies d into the store's space in one transaction: all of it or
// nothing. A space that already holds notes or history is refused, so
// that no id can mean two notes.
func (p *Postgres) Load(ctx context.Context, d *Dump) error {
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		// Lock the space's id counter first: no note can be created in it
		// while it is filled.
		if _, err := tx.Exec(ctx, `INSERT INTO agent_notes.spaces (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, p.space); err != nil {
			return err
		}
		var next int64
		if err := tx.QueryRow(ctx, `SELECT next_id FROM agent_notes.spaces WHERE name = $1 FOR UPDATE`, p.space).Scan(&next); err != nil {
			return err
		}
		var notes, history int64
		if err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM agent_notes.notes WHERE space = $1), (SELECT count(*) FROM agent_notes.note_history WHERE space = $1)`, p.space).Scan(&notes, &history); err != nil {
			return err
		}
		if notes > 0 || history > 0 || next > 1 {
			return invalidf("space %q already holds notes (%d, and %d old versions); choose another space with --space", p.space, notes, history)
		}
		rows := make([][]any, len(d.Notes))
		for i, n := range d.Notes {
			rows[i] = []any{p.space, n.ID, n.Title, n.Content, n.Folder, n.Tags, n.Session, n.CreatedAt, n.UpdatedAt}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{pgSchema, "notes"},
			[]string{"space", "id", "title", "content", "folder", "tags", "session", "created_at", "updated_at"}, pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("copy the notes: %w", err)
		}
		rows = make([][]any, len(d.History))
		for i, v := range d.History {
			rows[i] = []any{p.space, v.NoteID, v.Op, v.Title, v.Content, v.Folder, v.Tags, v.UpdatedAt, v.ReplacedAt, v.Session, v.ChangeSet}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{pgSchema, "note_history"},
			[]string{"space", "note_id", "op", "title", "content", "folder", "tags", "updated_at", "replaced_at", "session", "change_set"}, pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("copy the history: %w", err)
		}
		rows = make([][]any, len(d.Chunks))
		for i, c := range d.Chunks {
			rows[i] = []any{p.space, c.NoteID, c.Seq, c.Start, c.End, pgBits(signBits(c.Vector), len(c.Vector)), c.Vector, c.Model}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{pgSchema, "note_chunks"},
			[]string{"space", "note_id", "seq", "span_start", "span_end", "bits", "vec", "model"}, pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("copy the vectors: %w", err)
		}
		_, err := tx.Exec(ctx, `UPDATE agent_notes.spaces SET next_id = $2 WHERE name = $1`, p.space, max(d.NextID, 1))
		return err
	})
	return p.wrap(err)
}

// Migrate copies the SQLite store at path into the PostgreSQL database at
// url, in space, in one transaction (Load: a space that already holds
// notes is refused), and returns what it copied. The SQLite file is left
// as it is.
func Migrate(ctx context.Context, path, url, space string) (*Dump, error) {
	src, err := Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	dump, err := src.Dump(ctx)
	if err != nil {
		return nil, err
	}
	dst, err := OpenPostgres(ctx, url, Options{Space: space})
	if err != nil {
		return nil, err
	}
	defer dst.Close()
	if err := dst.Load(ctx, dump); err != nil {
		return nil, err
	}
	return dump, nil
}

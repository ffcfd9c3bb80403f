package notes

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agentcli/agent/tools"
)

// nextIDs reserves n ids in the space and returns the first. The row
// lock it takes is held until the transaction ends, so ids are handed out
// in commit order within a space, never twice.
func (p *Postgres) nextIDs(ctx context.Context, tx pgx.Tx, n int) (int64, error) {
	var first int64
	err := tx.QueryRow(ctx, `INSERT INTO agent_notes.spaces AS s (name, next_id) VALUES ($1, 1 + $2)
		ON CONFLICT (name) DO UPDATE SET next_id = s.next_id + $2 RETURNING next_id - $2`, p.space, n).Scan(&first)
	return first, err
}

// Create stores a new note in the space. With an Embedder its chunks are
// embedded first, before the transaction opens: a failed embedding
// stores nothing.
func (p *Postgres) Create(ctx context.Context, n NewNote) (Note, error) {
	n, err := checkNote(n)
	if err != nil {
		return Note{}, err
	}
	var chunks []Chunk
	if p.emb != nil {
		if chunks, err = embedNote(ctx, p.emb, n.Title, n.Content, nil); err != nil {
			return Note{}, err
		}
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	note := Note{Title: n.Title, Content: n.Content, Folder: n.Folder, Tags: n.Tags, Session: n.Session, Space: p.space, CreatedAt: now, UpdatedAt: now}
	err = pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		var err error
		if note.ID, err = p.nextIDs(ctx, tx, 1); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO agent_notes.notes (space, id, title, content, folder, tags, session, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`, p.space, note.ID, n.Title, n.Content, n.Folder, n.Tags, n.Session, now); err != nil {
			return err
		}
		return p.insertChunks(ctx, tx, note.ID, p.model(), chunks)
	})
	if err != nil {
		return Note{}, p.wrap(err)
	}
	return note, nil
}

func (p *Postgres) model() string {
	if p.emb == nil {
		return ""
	}
	return p.emb.Model()
}

// insertChunks stores a note's chunks with COPY.
func (p *Postgres) insertChunks(ctx context.Context, tx pgx.Tx, id int64, model string, chunks []Chunk) error {
	return p.copyChunks(ctx, tx, model, chunkRows(p.space, id, chunks))
}

// chunkRows are a note's chunks as rows of note_chunks (without model).
func chunkRows(space string, id int64, chunks []Chunk) [][]any {
	rows := make([][]any, len(chunks))
	for i, c := range chunks {
		rows[i] = []any{space, id, i, c.Start, c.End, pgBits(signBits(c.Vector), len(c.Vector)), c.Vector}
	}
	return rows
}

// copyChunks stores rows of chunkRows, of model, with one COPY.
func (p *Postgres) copyChunks(ctx context.Context, tx pgx.Tx, model string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	for i := range rows {
		rows[i] = append(rows[i], model)
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{pgSchema, "note_chunks"},
		[]string{"space", "note_id", "seq", "span_start", "span_end", "bits", "vec", "model"}, pgx.CopyFromRows(rows))
	return err
}

// Import creates ns in the space in one transaction with COPY: the bulk
// path. The notes are not embedded (Reindex does that).
func (p *Postgres) Import(ctx context.Context, ns []NewNote) ([]int64, error) {
	checked := make([]NewNote, len(ns))
	for i, n := range ns {
		var err error
		if checked[i], err = checkNote(n); err != nil {
			return nil, err
		}
	}
	if len(checked) == 0 {
		return []int64{}, nil
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	ids := make([]int64, len(checked))
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		first, err := p.nextIDs(ctx, tx, len(checked))
		if err != nil {
			return err
		}
		rows := make([][]any, len(checked))
		for i, n := range checked {
			ids[i] = first + int64(i)
			rows[i] = []any{p.space, ids[i], n.Title, n.Content, n.Folder, n.Tags, n.Session, now, now}
		}
		_, err = tx.CopyFrom(ctx, pgx.Identifier{pgSchema, "notes"},
			[]string{"space", "id", "title", "content", "folder", "tags", "session", "created_at", "updated_at"}, pgx.CopyFromRows(rows))
		return err
	})
	if err != nil {
		return nil, p.wrap(err)
	}
	return ids, nil
}

// Update changes a note in one transaction with its row locked: the
// version it replaces goes to the history, the search vector follows by
// trigger. With an Embedder a new title or content is embedded first,
// outside the transaction; a failed embedding changes nothing.
func (p *Postgres) Update(ctx context.Context, id int64, c Change) (Note, error) {
	var cache map[string][]float32
	for attempt := 1; ; attempt++ {
		var chunks []Chunk
		var seen *Note
		if p.emb != nil {
			old, err := p.getNote(ctx, p.pool, id, false)
			if err != nil {
				return Note{}, p.wrap(err)
			}
			if cache == nil {
				cache = map[string][]float32{}
			}
			if chunks, err = embedChange(ctx, p.emb, old, c, cache); err != nil {
				return Note{}, err
			}
			seen = &old
		}
		var n Note
		err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
			old, err := p.getNote(ctx, tx, id, true)
			if err != nil {
				return err
			}
			if seen != nil && (seen.Title != old.Title || seen.Content != old.Content) {
				return errChanged
			}
			if n, err = applyChange(old, c); err != nil {
				return err
			}
			n.UpdatedAt = nextUpdate(old.UpdatedAt)
			if err := p.saveHistory(ctx, tx, old, "update"); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE agent_notes.notes SET title = $3, content = $4, folder = $5, tags = $6, updated_at = $7 WHERE space = $1 AND id = $2`,
				p.space, id, n.Title, n.Content, n.Folder, n.Tags, n.UpdatedAt); err != nil {
				return err
			}
			return p.insertChunks(ctx, tx, id, p.model(), chunks)
		})
		if errors.Is(err, errChanged) && attempt < maxAttempts {
			continue
		}
		if err != nil {
			return Note{}, p.wrap(err)
		}
		return n, nil
	}
}

// Delete removes a note, keeping it in the history; its chunks go with
// it.
func (p *Postgres) Delete(ctx context.Context, id int64) (Note, error) {
	var old Note
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		var err error
		if old, err = p.getNote(ctx, tx, id, true); err != nil {
			return err
		}
		if err := p.saveHistory(ctx, tx, old, "delete"); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM agent_notes.notes WHERE space = $1 AND id = $2`, p.space, id)
		return err
	})
	if err != nil {
		return Note{}, p.wrap(err)
	}
	return old, nil
}

// saveHistory keeps the version old in the history, the last
// historyDepth of the note.
func (p *Postgres) saveHistory(ctx context.Context, tx pgx.Tx, old Note, op string) error {
	info := tools.Info(ctx)
	_, err := tx.Exec(ctx, `INSERT INTO agent_notes.note_history (space, note_id, op, title, content, folder, tags, updated_at, replaced_at, session, change_set)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		p.space, old.ID, op, old.Title, old.Content, old.Folder, old.Tags, old.UpdatedAt, time.Now().UTC(), info.SessionID, info.ChangeSet)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `DELETE FROM agent_notes.note_history WHERE space = $1 AND note_id = $2 AND hid <= (
		SELECT hid FROM agent_notes.note_history WHERE space = $1 AND note_id = $2 ORDER BY hid DESC LIMIT 1 OFFSET $3)`, p.space, old.ID, historyDepth)
	return err
}

// pgUnembedded selects the space's notes without vectors of a model.
const pgUnembedded = ` FROM agent_notes.notes n WHERE n.space = $1 AND NOT EXISTS (
	SELECT 1 FROM agent_notes.note_chunks c WHERE c.space = n.space AND c.note_id = n.id AND c.model = $2)`

// Unembedded returns up to limit notes of the space with ids above after
// that have no vectors of model, in id order.
func (p *Postgres) Unembedded(ctx context.Context, model string, after int64, limit int) ([]Note, error) {
	rows, err := p.pool.Query(ctx, `SELECT `+pgNoteColumns+pgUnembedded+` AND n.id > $3 ORDER BY n.id LIMIT $4`, p.space, model, after, limit)
	if err != nil {
		return nil, p.wrap(err)
	}
	defer rows.Close()
	var out []Note
	for rows.Next() {
		n, err := pgScanNote(rows)
		if err != nil {
			return nil, p.wrap(err)
		}
		out = append(out, n)
	}
	return out, p.wrap(rows.Err())
}

// CountUnembedded counts the space's notes without vectors of model.
func (p *Postgres) CountUnembedded(ctx context.Context, model string) (int, error) {
	var n int64
	err := p.pool.QueryRow(ctx, `SELECT count(*)`+pgUnembedded, p.space, model).Scan(&n)
	return int(n), p.wrap(err)
}

// SetChunks replaces the chunks of each note with es's, in one
// transaction, unless its title or content changed since it was read.
func (p *Postgres) SetChunks(ctx context.Context, model string, es []Embedded) ([]int64, error) {
	var stored []int64
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		stored = nil
		var rows [][]any
		for _, e := range es {
			cur, err := p.getNote(ctx, tx, e.Note.ID, true)
			if errors.Is(err, ErrNotFound) {
				continue // deleted since
			}
			if err != nil {
				return err
			}
			if cur.Title != e.Note.Title || cur.Content != e.Note.Content {
				continue
			}
			if _, err := tx.Exec(ctx, `DELETE FROM agent_notes.note_chunks WHERE space = $1 AND note_id = $2`, p.space, e.Note.ID); err != nil {
				return err
			}
			rows = append(rows, chunkRows(p.space, e.Note.ID, e.Chunks)...)
			stored = append(stored, e.Note.ID)
		}
		return p.copyChunks(ctx, tx, model, rows)
	})
	return stored, p.wrap(err)
}

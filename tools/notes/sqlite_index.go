package notes

import (
	"context"
	"errors"
)

var _ Indexer = (*SQLite)(nil)

// unembeddedSQL selects the notes without vectors of a model.
const unembeddedSQL = ` FROM notes n WHERE NOT EXISTS (SELECT 1 FROM note_chunks c WHERE c.note_id = n.id AND c.model = ?)`

// Unembedded returns up to limit notes with ids above after that have
// no vectors of model, in id order.
func (s *SQLite) Unembedded(ctx context.Context, model string, after int64, limit int) ([]Note, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+noteColumns+unembeddedSQL+` AND n.id > ? ORDER BY n.id LIMIT ?`, model, after, limit)
	if err != nil {
		return nil, s.wrap(err)
	}
	defer rows.Close()
	var out []Note
	for rows.Next() {
		n, err := scanNote(rows.Scan)
		if err != nil {
			return nil, s.wrap(err)
		}
		out = append(out, n)
	}
	return out, s.wrap(rows.Err())
}

// CountUnembedded counts the notes without vectors of model.
func (s *SQLite) CountUnembedded(ctx context.Context, model string) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*)`+unembeddedSQL, model).Scan(&n)
	return n, s.wrap(err)
}

// SetChunks replaces the chunks of each note with es's, in one
// transaction, unless its title or content changed since it was read.
func (s *SQLite) SetChunks(ctx context.Context, model string, es []Embedded) ([]int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, s.wrap(err)
	}
	defer tx.Rollback()
	var stored []int64
	for _, e := range es {
		cur, err := getNote(ctx, tx, e.Note.ID)
		if errors.Is(err, ErrNotFound) {
			continue // deleted since
		}
		if err != nil {
			return nil, s.wrap(err)
		}
		if cur.Title != e.Note.Title || cur.Content != e.Note.Content {
			continue
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM note_chunks WHERE note_id = ?`, e.Note.ID); err != nil {
			return nil, s.wrap(err)
		}
		if err := insertChunks(ctx, tx, e.Note.ID, model, e.Chunks); err != nil {
			return nil, s.wrap(err)
		}
		stored = append(stored, e.Note.ID)
	}
	return stored, s.wrap(tx.Commit())
}

package notes

import (
	"context"
	"errors"
)

var _ Indexer = (*SQLite)(nil)

// Unembedded returns up to limit notes without vectors of model, oldest
// id first, and how many there are.
func (s *SQLite) Unembedded(ctx context.Context, model string, limit int) ([]Note, int, error) {
	const missing = ` FROM notes n WHERE NOT EXISTS (SELECT 1 FROM note_chunks c WHERE c.note_id = n.id AND c.model = ?)`
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*)`+missing, model).Scan(&total); err != nil {
		return nil, 0, s.wrap(err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+noteColumns+missing+` ORDER BY n.id LIMIT ?`, model, limit)
	if err != nil {
		return nil, 0, s.wrap(err)
	}
	defer rows.Close()
	var out []Note
	for rows.Next() {
		n, err := scanNote(rows.Scan)
		if err != nil {
			return nil, 0, s.wrap(err)
		}
		out = append(out, n)
	}
	return out, total, s.wrap(rows.Err())
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

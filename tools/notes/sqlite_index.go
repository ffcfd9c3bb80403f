package notes

import (
	"context"
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

// SetChunks replaces the chunks of n with chunks of model, unless its
// title or content changed since n was read.
func (s *SQLite) SetChunks(ctx context.Context, n Note, model string, chunks []Chunk) (bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, s.wrap(err)
	}
	defer tx.Rollback()
	cur, err := getNote(ctx, tx, n.ID)
	if err != nil {
		return false, s.wrap(err)
	}
	if cur.Title != n.Title || cur.Content != n.Content {
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM note_chunks WHERE note_id = ?`, n.ID); err != nil {
		return false, s.wrap(err)
	}
	if err := insertChunks(ctx, tx, n.ID, model, chunks); err != nil {
		return false, s.wrap(err)
	}
	return true, s.wrap(tx.Commit())
}

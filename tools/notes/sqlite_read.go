package notes

import (
	"context"
	"strings"
)

// Get returns the note with id, or ErrNotFound.
func (s *SQLite) Get(ctx context.Context, id int64) (Note, error) {
	n, err := getNote(ctx, s.db, id)
	return n, s.wrap(err)
}

// filter is the WHERE clause of a folder and tag filter, on table alias n.
func filter(folder, tag string) (string, []any, error) {
	var where []string
	var args []any
	if folder != "" {
		f, err := NormalizeFolder(folder)
		if err != nil {
			return "", nil, err
		}
		if f != "/" {
			// The folder and everything under it: a range on the folder
			// index ('0' is the byte after '/').
			where = append(where, "n.folder >= ? AND n.folder < ?")
			args = append(args, f, f[:len(f)-1]+"0")
		}
	}
	if tag != "" {
		tags, err := NormalizeTags([]string{tag})
		if err != nil {
			return "", nil, err
		}
		if len(tags) == 1 {
			where = append(where, "n.id IN (SELECT note_id FROM note_tags WHERE tag = ?)")
			args = append(args, tags[0])
		}
	}
	if len(where) == 0 {
		return "", nil, nil
	}
	return " WHERE " + strings.Join(where, " AND "), args, nil
}

func clampLimit(n int) int {
	switch {
	case n <= 0:
		return DefaultLimit
	case n > MaxLimit:
		return MaxLimit
	}
	return n
}

// List returns a page of notes (without content), the most recently
// updated first.
func (s *SQLite) List(ctx context.Context, o ListOptions) (Page, error) {
	where, args, err := filter(o.Folder, o.Tag)
	if err != nil {
		return Page{}, err
	}
	page := Page{Notes: []Note{}}
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM notes n"+where, args...).Scan(&page.Total); err != nil {
		return Page{}, s.wrap(err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, title, '', folder, tags, session, created_at, updated_at FROM notes n`+where+
		` ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?`, append(args, clampLimit(o.Limit), max(o.Offset, 0))...)
	if err != nil {
		return Page{}, s.wrap(err)
	}
	defer rows.Close()
	for rows.Next() {
		n, err := scanNote(rows.Scan)
		if err != nil {
			return Page{}, s.wrap(err)
		}
		page.Notes = append(page.Notes, n)
	}
	return page, s.wrap(rows.Err())
}

// Folders lists the folders that hold notes, each with its own count.
func (s *SQLite) Folders(ctx context.Context) ([]Count, error) {
	return s.counts(ctx, "SELECT folder, count(*) FROM notes GROUP BY folder ORDER BY folder")
}

// Tags lists the tags in use, each with its number of notes.
func (s *SQLite) Tags(ctx context.Context) ([]Count, error) {
	return s.counts(ctx, "SELECT tag, count(*) FROM note_tags GROUP BY tag ORDER BY tag")
}

func (s *SQLite) counts(ctx context.Context, query string) ([]Count, error) {
	rows, err := s.db.QueryContext(ctx, query)
	if err != nil {
		return nil, s.wrap(err)
	}
	defer rows.Close()
	out := []Count{}
	for rows.Next() {
		var c Count
		if err := rows.Scan(&c.Name, &c.Notes); err != nil {
			return nil, s.wrap(err)
		}
		out = append(out, c)
	}
	return out, s.wrap(rows.Err())
}

// Check verifies the database file and that the full-text index agrees
// with the notes, one for one.
func (s *SQLite) Check(ctx context.Context) error {
	var res string
	if err := s.db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&res); err != nil {
		return s.wrap(err)
	}
	if res != "ok" {
		return s.wrap(errorString("integrity check: " + res))
	}
	_, err := s.db.ExecContext(ctx, "INSERT INTO notes_fts(notes_fts, rank) VALUES ('integrity-check', 1)")
	return s.wrap(err)
}

type errorString string

func (e errorString) Error() string { return string(e) }

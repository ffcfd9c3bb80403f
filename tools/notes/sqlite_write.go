package notes

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/agentcli/agent/tools"
)

const insertNote = `INSERT INTO notes (title, content, folder, tags, session, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`

// Create stores a new note. With an Embedder its chunks are embedded
// first, before the transaction opens, and stored with it: a failed
// embedding stores nothing.
func (s *SQLite) Create(ctx context.Context, n NewNote) (Note, error) {
	n, err := checkNote(n)
	if err != nil {
		return Note{}, err
	}
	var chunks []Chunk
	if s.emb != nil {
		if chunks, err = embedNote(ctx, s.emb, n.Title, n.Content, nil); err != nil {
			return Note{}, err
		}
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Note{}, s.wrap(err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, insertNote, n.Title, n.Content, n.Folder, tagsJSON(n.Tags), n.Session, now.UnixMilli(), now.UnixMilli())
	if err != nil {
		return Note{}, s.wrap(err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return Note{}, s.wrap(err)
	}
	if err := insertChunks(ctx, tx, id, s.model(), chunks); err != nil {
		return Note{}, s.wrap(err)
	}
	if err := tx.Commit(); err != nil {
		return Note{}, s.wrap(err)
	}
	return Note{ID: id, Title: n.Title, Content: n.Content, Folder: n.Folder, Tags: n.Tags, Session: n.Session, CreatedAt: now, UpdatedAt: now}, nil
}

// model is the embedder's model, "" without one.
func (s *SQLite) model() string {
	if s.emb == nil {
		return ""
	}
	return s.emb.Model()
}

// insertChunks stores a note's chunks with their vectors and sign bits.
func insertChunks(ctx context.Context, tx *sql.Tx, id int64, model string, chunks []Chunk) error {
	for i, c := range chunks {
		res, err := tx.ExecContext(ctx, `INSERT INTO note_chunks (note_id, seq, model, span_start, span_end, bits) VALUES (?, ?, ?, ?, ?, ?)`,
			id, i, model, c.Start, c.End, signBits(c.Vector))
		if err != nil {
			return err
		}
		cid, err := res.LastInsertId()
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO note_vectors (chunk_id, vec) VALUES (?, ?)`, cid, vecBytes(c.Vector)); err != nil {
			return err
		}
	}
	return nil
}

// bulkImport is the smallest import that indexes its notes in one pass.
const bulkImport = 64

// Import creates ns in one transaction with one prepared statement: the
// bulk path, tens of thousands of notes a second. The notes are not
// embedded (Reindex does that). A large import builds its part of the
// index once, after its rows are in: the insert trigger is dropped for
// the time of the transaction (no other connection can write meanwhile,
// nor see it gone), which is several times faster than a trigger per row.
func (s *SQLite) Import(ctx context.Context, ns []NewNote) ([]int64, error) {
	checked := make([]NewNote, len(ns))
	for i, n := range ns {
		var err error
		if checked[i], err = checkNote(n); err != nil {
			return nil, err
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, s.wrap(err)
	}
	defer tx.Rollback()
	bulk := len(checked) >= bulkImport
	if bulk {
		if _, err := tx.ExecContext(ctx, `DROP TRIGGER notes_ai`); err != nil {
			return nil, s.wrap(err)
		}
	}
	stmt, err := tx.PrepareContext(ctx, insertNote)
	if err != nil {
		return nil, s.wrap(err)
	}
	defer stmt.Close()
	now := time.Now().UTC().UnixMilli()
	ids := make([]int64, len(checked))
	for i, n := range checked {
		res, err := stmt.ExecContext(ctx, n.Title, n.Content, n.Folder, tagsJSON(n.Tags), n.Session, now, now)
		if err != nil {
			return nil, s.wrap(err)
		}
		if ids[i], err = res.LastInsertId(); err != nil {
			return nil, s.wrap(err)
		}
	}
	if bulk {
		// The ids are the transaction's own from ids[0] on: it holds the
		// write lock.
		for _, q := range []string{
			`INSERT INTO notes_fts(rowid, title, content, tags, folder) SELECT id, title, content, tags, folder FROM notes WHERE id >= ?`,
			`INSERT INTO note_tags(note_id, tag) SELECT n.id, j.value FROM notes n, json_each(n.tags) j WHERE n.id >= ?`,
			notesInsertTriggerV3,
		} {
			args := []any{ids[0]}
			if q == notesInsertTriggerV3 {
				args = nil
			}
			if _, err := tx.ExecContext(ctx, q, args...); err != nil {
				return nil, s.wrap(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, s.wrap(err)
	}
	return ids, nil
}

// errChanged is update's answer when the note changed while its new
// text was being embedded: Update embeds again and retries.
var errChanged = errors.New("the note changed while it was being embedded; try again")

// maxAttempts bounds Update's retries when the note keeps changing while
// it is embedded.
const maxAttempts = 8

// Update changes a note in one transaction: the version it replaces goes
// to the history first, and the triggers update the index in the same
// transaction, so a crash leaves the old note or the new one, indexed.
// With an Embedder a new title or content is embedded first, outside the
// transaction, and stored with the note; a failed embedding changes
// nothing.
func (s *SQLite) Update(ctx context.Context, id int64, c Change) (Note, error) {
	var cache map[string][]float32
	for attempt := 1; ; attempt++ {
		var chunks []Chunk
		var seen *Note
		if s.emb != nil {
			old, err := getNote(ctx, s.db, id)
			if err != nil {
				return Note{}, s.wrap(err)
			}
			if cache == nil {
				cache = map[string][]float32{}
			}
			if chunks, err = embedChange(ctx, s.emb, old, c, cache); err != nil {
				return Note{}, err
			}
			seen = &old
		}
		n, err := s.update(ctx, id, c, seen, chunks)
		if errors.Is(err, errChanged) && attempt < maxAttempts {
			continue
		}
		return n, s.wrap(err)
	}
}

// update writes one change. seen is the note as it was embedded (nil
// without an Embedder): if its text changed since, nothing is written and
// the error is errChanged.
func (s *SQLite) update(ctx context.Context, id int64, c Change, seen *Note, chunks []Chunk) (Note, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Note{}, err
	}
	defer tx.Rollback()
	old, err := getNote(ctx, tx, id)
	if err != nil {
		return Note{}, err
	}
	if seen != nil && (seen.Title != old.Title || seen.Content != old.Content) {
		return Note{}, errChanged
	}
	n, err := applyChange(old, c)
	if err != nil {
		return Note{}, err
	}
	n.UpdatedAt = nextUpdate(old.UpdatedAt)
	if err := saveHistory(ctx, tx, old, "update"); err != nil {
		return Note{}, err
	}
	_, err = tx.ExecContext(ctx, `UPDATE notes SET title = ?, content = ?, folder = ?, tags = ?, updated_at = ? WHERE id = ?`,
		n.Title, n.Content, n.Folder, tagsJSON(n.Tags), n.UpdatedAt.UnixMilli(), id)
	if err != nil {
		return Note{}, err
	}
	// The trigger dropped the old chunks if the text changed.
	if err := insertChunks(ctx, tx, id, s.model(), chunks); err != nil {
		return Note{}, err
	}
	return n, tx.Commit()
}

// nextUpdate is the updated_at of a change to a note last updated at
// last: now, to the millisecond, and always later than last.
func nextUpdate(last time.Time) time.Time {
	t := time.Now().UTC().Truncate(time.Millisecond)
	if !t.After(last) {
		t = last.Add(time.Millisecond)
	}
	return t
}

// Delete removes a note, keeping it in the history.
func (s *SQLite) Delete(ctx context.Context, id int64) (Note, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Note{}, s.wrap(err)
	}
	defer tx.Rollback()
	old, err := getNote(ctx, tx, id)
	if err != nil {
		return Note{}, s.wrap(err)
	}
	if err := saveHistory(ctx, tx, old, "delete"); err != nil {
		return Note{}, s.wrap(err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM notes WHERE id = ?`, id); err != nil {
		return Note{}, s.wrap(err)
	}
	return old, s.wrap(tx.Commit())
}

// applyChange returns old with c applied and checked. Every backend's
// Update means the same through it.
func applyChange(old Note, c Change) (Note, error) {
	n := old
	var err error
	if c.Content != nil {
		if n.Content, err = ApplyMode(old.Content, *c.Content, c.Mode); err != nil {
			return Note{}, err
		}
	} else if c.Mode != "" && c.Mode != Replace {
		return Note{}, invalidf("mode %s needs content", c.Mode)
	}
	if c.Title != nil {
		n.Title = *c.Title
	}
	if c.Folder != nil {
		n.Folder = *c.Folder
	}
	if c.Tags != nil {
		n.Tags = *c.Tags
	}
	checked, err := checkNote(NewNote{Title: n.Title, Content: n.Content, Folder: n.Folder, Tags: n.Tags})
	if err != nil {
		return Note{}, err
	}
	n.Title, n.Folder, n.Tags = checked.Title, checked.Folder, checked.Tags
	return n, nil
}

func saveHistory(ctx context.Context, tx *sql.Tx, old Note, op string) error {
	info := tools.Info(ctx)
	_, err := tx.ExecContext(ctx, `INSERT INTO note_history (note_id, op, title, content, folder, tags, updated_at, replaced_at, session, change_set)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		old.ID, op, old.Title, old.Content, old.Folder, tagsJSON(old.Tags), old.UpdatedAt.UnixMilli(), time.Now().UnixMilli(), info.SessionID, info.ChangeSet)
	if err != nil {
		return err
	}
	// Keep the last historyDepth versions of each note: enough to undo,
	// bounded for a note appended to thousands of times.
	_, err = tx.ExecContext(ctx, `DELETE FROM note_history WHERE note_id = ? AND id <= (
		SELECT id FROM note_history WHERE note_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`, old.ID, old.ID, historyDepth)
	return err
}

// historyDepth is how many replaced versions of a note are kept.
const historyDepth = 20

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

const noteColumns = `id, title, content, folder, tags, session, created_at, updated_at`

func getNote(ctx context.Context, q querier, id int64) (Note, error) {
	row := q.QueryRowContext(ctx, `SELECT `+noteColumns+` FROM notes WHERE id = ?`, id)
	n, err := scanNote(row.Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return Note{}, ErrNotFound
	}
	return n, err
}

func scanNote(scan func(...any) error) (Note, error) {
	var n Note
	var tags string
	var created, updated int64
	if err := scan(&n.ID, &n.Title, &n.Content, &n.Folder, &tags, &n.Session, &created, &updated); err != nil {
		return Note{}, err
	}
	n.Tags = parseTagsJSON(tags)
	n.CreatedAt, n.UpdatedAt = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	return n, nil
}

func tagsJSON(tags []string) string {
	if len(tags) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(tags)
	return string(b)
}

func parseTagsJSON(s string) []string {
	tags := []string{}
	_ = json.Unmarshal([]byte(s), &tags)
	return tags
}

package notes

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"modernc.org/sqlite"
)

// Query limits: a longer query, or one with more words, is searched by its
// first words only. They bound the work of one search.
const (
	maxQueryBytes = 1000
	maxWords      = 32
)

// Syntax is the query syntax in a few words, for messages.
const Syntax = `"exact phrase", prefix*, a OR b, a NOT b, title:word`

// Search finds notes matching a full-text query, best first. The query is
// FTS5 syntax (Syntax); one that is not valid syntax is searched as plain
// words instead, and SearchResult.Fallback says so. Title matches rank
// above content matches.
func (s *SQLite) Search(ctx context.Context, o SearchOptions) (SearchResult, error) {
	q := strings.TrimSpace(o.Query)
	if q == "" {
		return SearchResult{}, invalidf("the query is empty; give a word or phrase to search for")
	}
	where, args, err := filter(o.Folder, o.Tag)
	if err != nil {
		return SearchResult{}, err
	}
	limit := clampLimit(o.Limit)
	res := SearchResult{Query: q, Hits: []Hit{}}
	reason := ""
	if len(q) > maxQueryBytes {
		reason = fmt.Sprintf("the query is longer than %d bytes", maxQueryBytes)
	} else {
		hits, err := s.match(ctx, q, where, args, limit)
		if err == nil {
			res.Hits = hits
			return res, nil
		}
		if !isSyntaxError(err) {
			return SearchResult{}, s.wrap(err)
		}
		reason = fmt.Sprintf("%q is not valid search syntax (%s)", clipRunes(q, 60), Syntax)
	}
	words := PlainWords(q, maxWords)
	if len(words) == 0 {
		res.Fallback = reason + ", and it has no words to search for"
		return res, nil
	}
	res.Query = quoteWords(words, " ")
	which := "all of them"
	hits, err := s.match(ctx, res.Query, where, args, limit)
	if err == nil && len(hits) == 0 && len(words) > 1 {
		res.Query = quoteWords(words, " OR ")
		which = "any of them, since no note has all"
		hits, err = s.match(ctx, res.Query, where, args, limit)
	}
	if err != nil {
		return SearchResult{}, s.wrap(err)
	}
	res.Hits = hits
	res.Fallback = fmt.Sprintf("%s; searched instead as plain words: %s", reason, clipRunes(strings.Join(words, ", "), 120))
	if len(words) > 1 {
		res.Fallback += " (" + which + ")"
	}
	return res, nil
}

// clipRunes is s cut to at most n characters, with "…" when cut.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// match runs one FTS5 query. The full-text match drives it: FTS5 ranks
// (ORDER BY rank uses the table's bm25 weights) and cuts to the limit,
// and only then are the hits' titles, folders and tags fetched.
func (s *SQLite) match(ctx context.Context, q, where string, args []any, limit int) ([]Hit, error) {
	query := `SELECT rowid, rank, snippet(notes_fts, 1, ?, ?, '…', 24) FROM notes_fts WHERE notes_fts MATCH ?`
	all := []any{MarkStart, MarkEnd, q}
	if where != "" {
		query += ` AND rowid IN (SELECT n.id FROM notes n` + where + `)`
		all = append(all, args...)
	}
	query += ` ORDER BY rank LIMIT ?`
	all = append(all, limit)
	rows, err := s.db.QueryContext(ctx, query, all...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hits []Hit
	for rows.Next() {
		var h Hit
		if err := rows.Scan(&h.Note.ID, &h.Score, &h.Excerpt); err != nil {
			return nil, err
		}
		h.Score = -h.Score // bm25 is lower for better matches
		hits = append(hits, h)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(hits) == 0 {
		return []Hit{}, nil
	}
	return hits, s.fillHits(ctx, hits)
}

// fillHits fetches the metadata of the hits, by primary key.
func (s *SQLite) fillHits(ctx context.Context, hits []Hit) error {
	ids := make([]any, len(hits))
	for i, h := range hits {
		ids[i] = h.Note.ID
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, title, '', folder, tags, session, created_at, updated_at FROM notes WHERE id IN (?`+
		strings.Repeat(",?", len(ids)-1)+`)`, ids...)
	if err != nil {
		return err
	}
	defer rows.Close()
	byID := make(map[int64]Note, len(hits))
	for rows.Next() {
		n, err := scanNote(rows.Scan)
		if err != nil {
			return err
		}
		byID[n.ID] = n
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i := range hits {
		hits[i].Note = byID[hits[i].Note.ID]
	}
	return nil
}

// isSyntaxError reports whether err is FTS5 refusing the query's syntax
// (an unbalanced quote, a dangling operator, an unknown column filter).
func isSyntaxError(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	msg := se.Error()
	for _, s := range []string{"fts5:", "unterminated string", "unknown special query", "no such column"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// PlainWords returns the first max words of q: runs of letters and digits,
// as the index's tokenizer sees them.
func PlainWords(q string, max int) []string {
	words := strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) > max {
		words = words[:max]
	}
	return words
}

func quoteWords(words []string, sep string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = `"` + w + `"`
	}
	return strings.Join(q, sep)
}

package notes

import (
	"cmp"
	"context"
	"math/bits"
	"slices"
	"strings"
)

// Search finds notes by full-text search, by meaning, or both (see
// SearchOptions and Syntax), best first. Title matches rank above tag,
// folder and content matches.
func (s *SQLite) Search(ctx context.Context, o SearchOptions) (SearchResult, error) {
	r, err := search(ctx, s, s.emb, o)
	return r, s.wrap(err)
}

// matchText runs one FTS5 query. The full-text match drives it: FTS5 ranks
// (ORDER BY rank uses the table's bm25 weights) and cuts to the limit,
// and only then are the hits' titles, folders and tags fetched.
func (s *SQLite) matchText(ctx context.Context, q *query, f filterSpec, limit int) ([]Hit, error) {
	where, args, err := filter(f.Folder, f.Tag)
	if err != nil {
		return nil, err
	}
	stmt := `SELECT rowid, rank, snippet(notes_fts, 1, ?, ?, '…', 24) FROM notes_fts WHERE notes_fts MATCH ?`
	all := []any{MarkStart, MarkEnd, q.fts5()}
	if where != "" {
		stmt += ` AND rowid IN (SELECT n.id FROM notes n` + where + `)`
		all = append(all, args...)
	}
	stmt += ` ORDER BY rank LIMIT ?`
	all = append(all, limit)
	rows, err := s.query(ctx, stmt, all...)
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
	return hits, s.fillHits(ctx, hits, nil)
}

// matchVector ranks the notes by the similarity of their best chunk to v,
// in two steps: a scan of every chunk's sign bits picks the candidates()
// nearest by Hamming distance, then their vectors are read and ranked by
// the exact dot product. The scan reads 1/32 of the vectors' bytes, and
// their table only for the candidates.
func (s *SQLite) matchVector(ctx context.Context, v []float32, model string, f filterSpec, limit int) ([]Hit, error) {
	where, args, err := filter(f.Folder, f.Tag)
	if err != nil {
		return nil, err
	}
	stmt := `SELECT c.id, c.bits FROM note_chunks c`
	if where != "" {
		stmt += ` JOIN notes n ON n.id = c.note_id` + where + ` AND c.model = ?`
	} else {
		stmt += ` WHERE c.model = ?`
	}
	rows, err := s.db.QueryContext(ctx, stmt, append(args, model)...)
	if err != nil {
		return nil, err
	}
	want := signBits(v)
	type cand struct {
		id   int64
		dist int
	}
	var top []cand
	n := candidates(limit)
	worst := 1 << 30
	for rows.Next() {
		var c cand
		var b []byte
		if err := rows.Scan(&c.id, &b); err != nil {
			rows.Close()
			return nil, err
		}
		if len(b) != len(want) {
			continue
		}
		for i := range b {
			c.dist += bits.OnesCount8(b[i] ^ want[i])
		}
		if len(top) >= 2*n && c.dist >= worst {
			continue
		}
		top = append(top, c)
		if len(top) >= 4*n { // keep the buffer bounded
			slices.SortFunc(top, func(a, b cand) int { return cmp.Compare(a.dist, b.dist) })
			top = top[:2*n]
			worst = top[len(top)-1].dist
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(top, func(a, b cand) int { return cmp.Compare(a.dist, b.dist) })
	if len(top) > n {
		top = top[:n]
	}
	if len(top) == 0 {
		return []Hit{}, nil
	}
	ids := make([]any, len(top))
	for i, c := range top {
		ids[i] = c.id
	}
	rows, err = s.db.QueryContext(ctx, `SELECT c.note_id, c.span_start, c.span_end, v.vec FROM note_chunks c JOIN note_vectors v ON v.chunk_id = c.id WHERE c.id IN (?`+strings.Repeat(",?", len(ids)-1)+`)`, ids...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	best := map[int64]*Hit{}
	spans := map[int64][2]int{}
	for rows.Next() {
		var id int64
		var start, end int
		var b []byte
		if err := rows.Scan(&id, &start, &end, &b); err != nil {
			return nil, err
		}
		score := dot(v, bytesVec(b))
		if h, ok := best[id]; !ok || score > h.Score {
			best[id] = &Hit{Note: Note{ID: id}, Score: score}
			spans[id] = [2]int{start, end}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	hits := make([]Hit, 0, len(best))
	for _, h := range best {
		hits = append(hits, *h)
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Note.ID, b.Note.ID)
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, s.fillHits(ctx, hits, spans)
}

// fillHits fetches the metadata of the hits, by primary key. spans are
// the best chunks of meaning hits, whose text becomes their excerpt.
func (s *SQLite) fillHits(ctx context.Context, hits []Hit, spans map[int64][2]int) error {
	withSpan := spans != nil
	ids := make([]any, len(hits))
	for i, h := range hits {
		ids[i] = h.Note.ID
	}
	content := "''"
	if withSpan {
		content = "content"
	}
	rows, err := s.query(ctx, `SELECT id, title, `+content+`, folder, tags, session, created_at, updated_at FROM notes WHERE id IN (?`+
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
		n := byID[hits[i].Note.ID]
		if withSpan {
			sp := spans[n.ID]
			hits[i].Excerpt = meaningExcerpt(n.Content, sp[0], sp[1])
			n.Content = ""
		}
		hits[i].Note = n
	}
	return nil
}

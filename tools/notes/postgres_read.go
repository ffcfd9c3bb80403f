package notes

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

const pgNoteColumns = `space, id, title, content, folder, tags, session, created_at, updated_at`

// pgScanNote reads a row of pgNoteColumns.
func pgScanNote(row pgx.Row) (Note, error) {
	var n Note
	var created, updated time.Time
	if err := row.Scan(&n.Space, &n.ID, &n.Title, &n.Content, &n.Folder, &n.Tags, &n.Session, &created, &updated); err != nil {
		return Note{}, err
	}
	if n.Tags == nil {
		n.Tags = []string{}
	}
	n.CreatedAt, n.UpdatedAt = created.UTC(), updated.UTC()
	return n, nil
}

func (p *Postgres) getNote(ctx context.Context, q pgQuerier, id int64, lock bool) (Note, error) {
	stmt := `SELECT ` + pgNoteColumns + ` FROM agent_notes.notes WHERE space = $1 AND id = $2`
	if lock {
		stmt += ` FOR UPDATE`
	}
	n, err := pgScanNote(q.QueryRow(ctx, stmt, p.space, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return Note{}, ErrNotFound
	}
	return n, err
}

// Get returns the note with id in the store's space, or ErrNotFound.
func (p *Postgres) Get(ctx context.Context, id int64) (Note, error) {
	n, err := p.getNote(ctx, p.pool, id, false)
	return n, p.wrap(err)
}

// pgFilter is the WHERE clause of a space, folder and tag filter on table
// alias n, with its arguments numbered from len(args)+1.
func (p *Postgres) pgFilter(f filterSpec, args []any) (string, []any, error) {
	var where []string
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if !f.AllSpaces {
		where = append(where, "n.space = "+arg(p.space))
	}
	if f.Folder != "" {
		folder, err := NormalizeFolder(f.Folder)
		if err != nil {
			return "", nil, err
		}
		if folder != "/" {
			where = append(where, "n.folder >= "+arg(folder)+" AND n.folder < "+arg(folder[:len(folder)-1]+"0"))
		}
	}
	if f.Tag != "" {
		tags, err := NormalizeTags([]string{f.Tag})
		if err != nil {
			return "", nil, err
		}
		if len(tags) == 1 {
			where = append(where, "n.tags @> ARRAY["+arg(tags[0])+"]::text[]")
		}
	}
	if len(where) == 0 {
		return " TRUE", args, nil
	}
	return " " + strings.Join(where, " AND "), args, nil
}

// List returns a page of the space's notes (without content), the most
// recently updated first.
func (p *Postgres) List(ctx context.Context, o ListOptions) (Page, error) {
	where, args, err := p.pgFilter(filterSpec{Folder: o.Folder, Tag: o.Tag}, nil)
	if err != nil {
		return Page{}, err
	}
	page := Page{Notes: []Note{}}
	if err := p.pool.QueryRow(ctx, `SELECT count(*) FROM agent_notes.notes n WHERE`+where, args...).Scan(&page.Total); err != nil {
		return Page{}, p.wrap(err)
	}
	n := len(args)
	rows, err := p.pool.Query(ctx, `SELECT space, id, title, '', folder, tags, session, created_at, updated_at FROM agent_notes.notes n WHERE`+where+
		fmt.Sprintf(` ORDER BY updated_at DESC, id DESC LIMIT $%d OFFSET $%d`, n+1, n+2), append(args, clampLimit(o.Limit), max(o.Offset, 0))...)
	if err != nil {
		return Page{}, p.wrap(err)
	}
	defer rows.Close()
	for rows.Next() {
		note, err := pgScanNote(rows)
		if err != nil {
			return Page{}, p.wrap(err)
		}
		page.Notes = append(page.Notes, note)
	}
	return page, p.wrap(rows.Err())
}

// Folders lists the space's folders, each with its own count.
func (p *Postgres) Folders(ctx context.Context) ([]Count, error) {
	return p.counts(ctx, `SELECT folder, count(*) FROM agent_notes.notes WHERE space = $1 GROUP BY folder ORDER BY folder`)
}

// Tags lists the space's tags, each with its number of notes.
func (p *Postgres) Tags(ctx context.Context) ([]Count, error) {
	return p.counts(ctx, `SELECT t, count(*) FROM agent_notes.notes, unnest(tags) AS t WHERE space = $1 GROUP BY t ORDER BY t COLLATE "C"`)
}

func (p *Postgres) counts(ctx context.Context, query string) ([]Count, error) {
	rows, err := p.pool.Query(ctx, query, p.space)
	if err != nil {
		return nil, p.wrap(err)
	}
	defer rows.Close()
	out := []Count{}
	for rows.Next() {
		var c Count
		var n int64
		if err := rows.Scan(&c.Name, &n); err != nil {
			return nil, p.wrap(err)
		}
		c.Notes = int(n)
		out = append(out, c)
	}
	return out, p.wrap(rows.Err())
}

// Search finds notes by full-text search, by meaning, or both, in the
// store's space unless o.AllSpaces.
func (p *Postgres) Search(ctx context.Context, o SearchOptions) (SearchResult, error) {
	r, err := search(ctx, p, p.emb, o)
	return r, p.wrap(err)
}

// pgRankWeights weigh folder (D), tags (C), content (B) and title (A)
// matches for ts_rank.
const pgRankWeights = `'{0.2, 0.6, 0.4, 1.0}'`

// pgHeadline are ts_headline's options: matches between the marks, one
// or two fragments of about 24 words.
var pgHeadline = "StartSel=" + MarkStart + ", StopSel=" + MarkEnd + ", MaxWords=24, MinWords=10, ShortWord=2, MaxFragments=2, FragmentDelimiter=\" … \""

// matchText ranks the matches with ts_rank and cuts to the limit first,
// and only then makes the excerpts of the hits with ts_headline.
func (p *Postgres) matchText(ctx context.Context, q *query, f filterSpec, limit int) ([]Hit, error) {
	where, args, err := p.pgFilter(f, []any{q.tsquery()})
	if err != nil {
		return nil, err
	}
	args = append(args, limit, pgHeadline)
	n := len(args)
	rows, err := p.pool.Query(ctx, `WITH q AS (SELECT to_tsquery('english', $1) AS q),
hits AS (
	SELECT n.space, n.id, ts_rank(`+pgRankWeights+`, n.search, q.q) AS score
	FROM agent_notes.notes n, q WHERE n.search @@ q.q AND`+where+`
	ORDER BY score DESC, n.id LIMIT $`+fmt.Sprint(n-1)+`
)
SELECT n.space, n.id, n.title, '', n.folder, n.tags, n.session, n.created_at, n.updated_at, h.score,
	ts_headline('english', n.content, q.q, $`+fmt.Sprint(n)+`)
FROM hits h JOIN agent_notes.notes n ON n.space = h.space AND n.id = h.id, q
ORDER BY h.score DESC, h.id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	hits := []Hit{}
	for rows.Next() {
		var h Hit
		var score float32
		var created, updated time.Time
		if err := rows.Scan(&h.Note.Space, &h.Note.ID, &h.Note.Title, &h.Note.Content, &h.Note.Folder, &h.Note.Tags, &h.Note.Session, &created, &updated, &score, &h.Excerpt); err != nil {
			return nil, err
		}
		h.Note.CreatedAt, h.Note.UpdatedAt, h.Score = created.UTC(), updated.UTC(), float64(score)
		if h.Note.Tags == nil {
			h.Note.Tags = []string{}
		}
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

// matchVector ranks chunks in two steps. In SQL, the sign bits' Hamming
// distance (bit_count of the XOR, over small rows) picks the
// candidates() nearest chunks; their float4[] vectors come back and are
// ranked by the exact dot product here, each note by its best chunk (a
// dot product in SQL, with unnest per row, was most of a hybrid search's
// time). Then the best notes' metadata and chunk text are read.
func (p *Postgres) matchVector(ctx context.Context, v []float32, model string, f filterSpec, limit int) ([]Hit, error) {
	where, args, err := p.pgFilter(f, []any{model, pgBits(signBits(v), len(v)), candidates(limit)})
	if err != nil {
		return nil, err
	}
	rows, err := p.pool.Query(ctx, `SELECT c.space, c.note_id, c.span_start, c.span_end, c.vec
	FROM agent_notes.note_chunks c JOIN agent_notes.notes n ON n.space = c.space AND n.id = c.note_id
	WHERE c.model = $1 AND length(c.bits) = length($2::varbit) AND`+where+`
	ORDER BY bit_count(c.bits # $2::varbit), c.note_id LIMIT $3`, args...)
	if err != nil {
		return nil, err
	}
	type key struct {
		space string
		id    int64
	}
	type best struct {
		score      float64
		start, end int32
	}
	bests := map[key]best{}
	for rows.Next() {
		var k key
		var start, end int32
		var vec []float32
		if err := rows.Scan(&k.space, &k.id, &start, &end, &vec); err != nil {
			rows.Close()
			return nil, err
		}
		score := dot(v, vec)
		if b, ok := bests[k]; !ok || score > b.score {
			bests[k] = best{score, start, end}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	keys := make([]key, 0, len(bests))
	for k := range bests {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if c := cmp.Compare(bests[b].score, bests[a].score); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(a.space, b.space), cmp.Compare(a.id, b.id))
	})
	keys = keys[:min(limit, len(keys))]
	spaces, ids, starts, ends := make([]string, len(keys)), make([]int64, len(keys)), make([]int32, len(keys)), make([]int32, len(keys))
	for i, k := range keys {
		spaces[i], ids[i], starts[i], ends[i] = k.space, k.id, bests[k].start, bests[k].end
	}
	rows, err = p.pool.Query(ctx, `SELECT n.space, n.id, n.title, '', n.folder, n.tags, n.session, n.created_at, n.updated_at,
	substring(convert_to(n.content, 'UTF8') FROM k.start + 1 FOR least(k.stop - k.start, 2000))
FROM unnest($1::text[], $2::bigint[], $3::int[], $4::int[]) WITH ORDINALITY AS k(space, id, start, stop, rank)
JOIN agent_notes.notes n ON n.space = k.space AND n.id = k.id
ORDER BY k.rank`, spaces, ids, starts, ends)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	hits := make([]Hit, 0, len(keys))
	for rows.Next() {
		var h Hit
		var created, updated time.Time
		var chunk []byte
		if err := rows.Scan(&h.Note.Space, &h.Note.ID, &h.Note.Title, &h.Note.Content, &h.Note.Folder, &h.Note.Tags, &h.Note.Session, &created, &updated, &chunk); err != nil {
			return nil, err
		}
		h.Note.CreatedAt, h.Note.UpdatedAt = created.UTC(), updated.UTC()
		h.Score = bests[key{h.Note.Space, h.Note.ID}].score
		text := strings.ToValidUTF8(string(chunk), "")
		h.Excerpt = meaningExcerpt(text, 0, len(text))
		if h.Note.Tags == nil {
			h.Note.Tags = []string{}
		}
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

// pgBits is sign bits as a PostgreSQL bit string of n bits.
func pgBits(b []byte, n int) pgtype.Bits {
	return pgtype.Bits{Bytes: b, Len: int32(n), Valid: true}
}

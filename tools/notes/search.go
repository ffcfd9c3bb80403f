package notes

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Query limits: a longer query, or one with more words, is searched by its
// first words only. They bound the work of one search.
const (
	maxQueryBytes = 1000
	maxWords      = 32
)

// Syntax is the query syntax in a few words, for messages.
const Syntax = `"exact phrase", prefix*, a OR b, a NOT b, (a OR b) c, title:word, tag:word`

// filterSpec is what a search is limited to besides its query.
type filterSpec struct {
	Folder, Tag string
	AllSpaces   bool
}

// searcher is what a backend gives the search: ranked full-text hits for
// a parsed query, and the notes whose chunks lie nearest a vector of
// model. Both return hits with the note's metadata (no content), best
// first, at most limit.
type searcher interface {
	matchText(ctx context.Context, q *query, f filterSpec, limit int) ([]Hit, error)
	matchVector(ctx context.Context, v []float32, model string, f filterSpec, limit int) ([]Hit, error)
}

// search runs a search on a backend: full-text, by meaning, or both
// fused (see SearchOptions.Mode). The query embedding is made before the
// backend is asked anything.
func search(ctx context.Context, b searcher, emb Embedder, o SearchOptions) (SearchResult, error) {
	q := strings.TrimSpace(o.Query)
	if q == "" {
		return SearchResult{}, invalidf("the query is empty; give a word or phrase to search for")
	}
	mode := o.Mode
	switch mode {
	case "":
		mode = ModeText
		if emb != nil {
			mode = ModeHybrid
		}
	case ModeText:
	case ModeMeaning, ModeHybrid:
		if emb == nil {
			return SearchResult{}, invalidf("search by meaning needs embeddings, and none are configured ([notes.embeddings] in your config); use mode text")
		}
	default:
		return SearchResult{}, invalidf("unknown search mode %q: use text, meaning or hybrid", mode)
	}
	f := filterSpec{Folder: o.Folder, Tag: o.Tag, AllSpaces: o.AllSpaces}
	if _, err := NormalizeFolder(f.Folder); err != nil {
		return SearchResult{}, err
	}
	limit := clampLimit(o.Limit)
	res := SearchResult{Query: q, Mode: mode, Hits: []Hit{}}
	deep := limit // each list of a hybrid search goes deeper than the fused one
	if mode == ModeHybrid {
		deep = min(MaxLimit, max(2*limit, 40))
	}
	var text []Hit
	if mode != ModeMeaning {
		var err error
		if text, res.Query, res.Fallback, err = searchText(ctx, b, q, f, deep); err != nil {
			return SearchResult{}, err
		}
		if mode == ModeText {
			res.Hits = text
			return res, nil
		}
	}
	vecs, err := embedBatch(ctx, emb, []string{clipRunes(q, maxQueryBytes)}, true)
	if err != nil {
		return SearchResult{}, err
	}
	meaning, err := b.matchVector(ctx, vecs[0], emb.Model(), f, deep)
	if err != nil {
		return SearchResult{}, err
	}
	if mode == ModeMeaning {
		for i := range meaning {
			meaning[i].Match = "meaning"
		}
		res.Hits = meaning
		return res, nil
	}
	res.Hits = fuse(text, meaning, limit)
	return res, nil
}

// searchText runs the full-text part. A query that is not valid syntax
// is searched as plain words instead (all of them, else any), and
// fallback says so; query is the query as searched.
func searchText(ctx context.Context, b searcher, q string, f filterSpec, limit int) (hits []Hit, searched, fallback string, err error) {
	reason := ""
	if len(q) > maxQueryBytes {
		reason = fmt.Sprintf("the query is longer than %d bytes", maxQueryBytes)
	} else {
		parsed, problem := parseQuery(q)
		switch {
		case problem == "" && parsed == nil:
			return []Hit{}, q, fmt.Sprintf("%q has no words to search for", clipRunes(q, 60)), nil
		case problem == "":
			hits, err := b.matchText(ctx, parsed, f, limit)
			return orEmpty(hits), parsed.String(), "", err
		}
		reason = fmt.Sprintf("%q is not valid search syntax (%s)", clipRunes(q, 60), Syntax)
	}
	words := PlainWords(q, maxWords)
	if len(words) == 0 {
		return []Hit{}, q, reason + ", and it has no words to search for", nil
	}
	all := plainQuery(words, opAnd)
	searched = all.String()
	which := "all of them"
	hits, err = b.matchText(ctx, all, f, limit)
	if err == nil && len(hits) == 0 && len(words) > 1 {
		anyOf := plainQuery(words, opOr)
		searched = anyOf.String()
		which = "any of them, since no note has all"
		hits, err = b.matchText(ctx, anyOf, f, limit)
	}
	if err != nil {
		return nil, "", "", err
	}
	fallback = fmt.Sprintf("%s; searched instead as plain words: %s", reason, clipRunes(strings.Join(words, ", "), 120))
	if len(words) > 1 {
		fallback += " (" + which + ")"
	}
	return orEmpty(hits), searched, fallback, nil
}

func orEmpty(h []Hit) []Hit {
	if h == nil {
		return []Hit{}
	}
	return h
}

// clipRunes is s cut to at most n characters, with "…" when cut.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
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

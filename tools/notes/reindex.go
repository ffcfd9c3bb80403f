package notes

import (
	"context"
)

// ReindexBatch is how many notes Reindex embeds in one round: their
// chunks in one call to the provider (split as the provider needs), their
// vectors stored in one transaction.
const ReindexBatch = 64

// Reindex embeds the notes of ix that have no vectors of e's model (a
// bulk import, notes made before embeddings were configured, another
// model's vectors), in batches, calling progress after each batch with
// the notes done and the total. It returns how many notes it embedded. A
// note changed while it was embedded is left for the next round.
func Reindex(ctx context.Context, ix Indexer, e Embedder, progress func(done, total int)) (int, error) {
	done, total := 0, -1
	skipped := map[int64]int{}
	for {
		batch, left, err := ix.Unembedded(ctx, e.Model(), ReindexBatch+len(skipped))
		if err != nil {
			return done, err
		}
		if total < 0 {
			total = left
		}
		var todo []Note
		for _, n := range batch {
			if skipped[n.ID] < 3 {
				todo = append(todo, n)
			}
		}
		if len(todo) == 0 {
			if progress != nil {
				progress(done, total)
			}
			return done, nil
		}
		if len(todo) > ReindexBatch {
			todo = todo[:ReindexBatch]
		}
		if err := embedMany(ctx, ix, e, todo, &done, skipped); err != nil {
			return done, err
		}
		if progress != nil {
			progress(done, total)
		}
	}
}

// embedMany embeds the chunks of notes in one provider call and stores
// each note's.
func embedMany(ctx context.Context, ix Indexer, e Embedder, notes []Note, done *int, skipped map[int64]int) error {
	var texts []string
	spans := make([][][2]int, len(notes))
	for i, n := range notes {
		spans[i] = chunkSpans(n.Content)
		texts = append(texts, chunkTexts(n.Title, n.Content, spans[i])...)
	}
	vecs, err := embedBatch(ctx, e, texts, false)
	if err != nil {
		return err
	}
	k := 0
	es := make([]Embedded, len(notes))
	for i, n := range notes {
		chunks := make([]Chunk, len(spans[i]))
		for j, sp := range spans[i] {
			chunks[j] = Chunk{Start: sp[0], End: sp[1], Vector: vecs[k]}
			k++
		}
		es[i] = Embedded{Note: n, Chunks: chunks}
	}
	stored, err := ix.SetChunks(ctx, e.Model(), es)
	if err != nil {
		return err
	}
	ok := map[int64]bool{}
	for _, id := range stored {
		ok[id] = true
	}
	for _, n := range notes {
		if ok[n.ID] {
			*done++
		} else {
			skipped[n.ID]++
		}
	}
	return nil
}

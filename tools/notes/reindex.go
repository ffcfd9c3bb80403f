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
// model's vectors), in one pass in id order, a batch at a time, calling
// progress after each batch with the notes done and the total. It
// returns how many notes it embedded. A note changed while it was
// embedded is left as it is: the change embedded it, or the next run
// will.
func Reindex(ctx context.Context, ix Indexer, e Embedder, progress func(done, total int)) (int, error) {
	total, err := ix.CountUnembedded(ctx, e.Model())
	if err != nil {
		return 0, err
	}
	done := 0
	var after int64
	for {
		batch, err := ix.Unembedded(ctx, e.Model(), after, ReindexBatch)
		if err != nil {
			return done, err
		}
		if len(batch) == 0 {
			if progress != nil {
				progress(done, total)
			}
			return done, nil
		}
		after = batch[len(batch)-1].ID
		n, err := embedMany(ctx, ix, e, batch)
		done += n
		if err != nil {
			return done, err
		}
		if progress != nil {
			progress(done, max(total, done))
		}
	}
}

// embedMany embeds the chunks of notes in one provider call and stores
// them in one transaction; it returns how many notes it stored.
func embedMany(ctx context.Context, ix Indexer, e Embedder, notes []Note) (int, error) {
	var texts []string
	spans := make([][][2]int, len(notes))
	for i, n := range notes {
		spans[i] = chunkSpans(n.Content)
		texts = append(texts, chunkTexts(n.Title, n.Content, spans[i])...)
	}
	vecs, err := embedBatch(ctx, e, texts, false)
	if err != nil {
		return 0, err
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
	return len(stored), err
}

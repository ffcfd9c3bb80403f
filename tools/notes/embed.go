package notes

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// Embedder turns texts into vectors that lie near each other when the
// texts mean similar things. The embeddings package has the Gemini and
// OpenAI-compatible ones.
type Embedder interface {
	// Model names the model (and its size). Vectors of different models
	// are never compared: a store keeps the model with each vector.
	Model() string
	// Embed returns one vector per text, in order. query is true for a
	// search query and false for a note's text (some models embed the
	// two differently).
	Embed(ctx context.Context, texts []string, query bool) ([][]float32, error)
}

// ErrEmbedding is wrapped by errors of the embedding provider: a create or
// update that fails with it changed nothing.
var ErrEmbedding = errors.New("embedding failed")

// CodeEmbedding is the protocol code of a failed embedding call.
const CodeEmbedding = "TOOL_PROVIDER_ERROR"

// Chunk is a piece of a note's content with its vector. Start and End are
// byte offsets in the content; the text embedded is the note's title and
// that piece.
type Chunk struct {
	Start, End int
	Vector     []float32
}

// Chunking: a note is embedded in pieces of at most maxChunk bytes, cut
// at paragraph ends, else line ends, else sentence ends, else spaces,
// so that every piece fits the smallest embedding window in use (about
// 2,000 tokens) with its title, and one vector does not blur a long note
// into an average of unrelated parts.
const (
	maxChunk = 1500
	minChunk = 200 // a cut leaves at least this much before it
)

// chunkSpans returns the [start, end) byte ranges of content's chunks;
// one (possibly empty) chunk for a short note.
func chunkSpans(content string) [][2]int {
	var spans [][2]int
	start := 0
	for len(content)-start > maxChunk {
		end := start + cutPoint(content[start:start+maxChunk])
		spans = append(spans, [2]int{start, end})
		start = end
	}
	return append(spans, [2]int{start, len(content)})
}

// cutPoint is where to end a chunk within window (never 0, never inside
// a UTF-8 sequence).
func cutPoint(window string) int {
	for _, sep := range []string{"\n\n", "\n", ". ", " "} {
		if i := strings.LastIndex(window, sep); i >= minChunk {
			return i + len(sep)
		}
	}
	end := len(window)
	for end > 0 && !utf8.RuneStart(window[end-1]) {
		end--
	}
	if end > 1 && !utf8.FullRune([]byte(window[end-1:])) {
		end--
	}
	return max(end, 1)
}

// chunkTexts are the texts embedded for a note: its title, a blank line,
// and each chunk.
func chunkTexts(title, content string, spans [][2]int) []string {
	texts := make([]string, len(spans))
	for i, sp := range spans {
		texts[i] = title + "\n\n" + content[sp[0]:sp[1]]
	}
	return texts
}

// embedNote chunks and embeds a note. cache holds vectors already made
// for a text (an update that is retried embeds only what is new); it may
// be nil.
func embedNote(ctx context.Context, e Embedder, title, content string, cache map[string][]float32) ([]Chunk, error) {
	spans := chunkSpans(content)
	texts := chunkTexts(title, content, spans)
	var todo []string
	for _, t := range texts {
		if _, ok := cache[t]; !ok {
			todo = append(todo, t)
		}
	}
	if len(todo) > 0 {
		vecs, err := embedBatch(ctx, e, todo, false)
		if err != nil {
			return nil, err
		}
		if cache == nil {
			cache = map[string][]float32{}
		}
		for i, t := range todo {
			cache[t] = vecs[i]
		}
	}
	chunks := make([]Chunk, len(spans))
	for i, sp := range spans {
		chunks[i] = Chunk{Start: sp[0], End: sp[1], Vector: cache[texts[i]]}
	}
	return chunks, nil
}

// embedBatch calls the embedder and checks its answer: one vector per
// text, all of one size, normalised to length 1 so that a dot product is
// the cosine similarity.
func embedBatch(ctx context.Context, e Embedder, texts []string, query bool) ([][]float32, error) {
	vecs, err := e.Embed(ctx, texts, query)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %s: %w", ErrEmbedding, e.Model(), err)
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("%w: %s returned %d vectors for %d texts", ErrEmbedding, e.Model(), len(vecs), len(texts))
	}
	for i, v := range vecs {
		if len(v) == 0 || len(v) != len(vecs[0]) {
			return nil, fmt.Errorf("%w: %s returned vectors of %d and %d numbers", ErrEmbedding, e.Model(), len(vecs[0]), len(v))
		}
		vecs[i] = normalize(v)
	}
	return vecs, nil
}

func normalize(v []float32) []float32 {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return make([]float32, len(v)) // a zero vector is near nothing
	}
	n := float32(1 / math.Sqrt(sum))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x * n
	}
	return out
}

// vecBytes stores a vector as little-endian float32s.
func vecBytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// bytesVec reads vecBytes.
func bytesVec(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// signBits is a vector reduced to one bit a number (set when positive),
// the most significant bit first. The Hamming distance of two such sign
// patterns follows the angle of the vectors closely enough to pick the
// candidates that the exact dot product then ranks: a scan of 1/32 of
// the bytes.
func signBits(v []float32) []byte {
	b := make([]byte, (len(v)+7)/8)
	for i, x := range v {
		if x > 0 {
			b[i/8] |= 0x80 >> (i % 8)
		}
	}
	return b
}

func dot(a, b []float32) float64 {
	n := min(len(a), len(b))
	var s float32
	for i := range n {
		s += a[i] * b[i]
	}
	return float64(s)
}

// candidates is how many chunks the sign-bit scan passes to the exact
// ranking for a search that wants limit notes.
func candidates(limit int) int { return max(200, 10*limit) }

// rrfK is reciprocal rank fusion's constant: a hit at rank r (from 1)
// scores 1/(rrfK+r) in each list it is in.
const rrfK = 60

// fuse merges the ranked text and meaning hits of one search by
// reciprocal rank fusion, best first, at most limit. A note found both
// ways keeps the text hit's excerpt, which marks the matches.
func fuse(text, meaning []Hit, limit int) []Hit {
	type key struct {
		space string
		id    int64
	}
	byID := map[key]int{}
	var out []Hit
	add := func(hits []Hit, how string) {
		for r, h := range hits {
			score := 1 / float64(rrfK+r+1)
			key := key{h.Note.Space, h.Note.ID}
			if i, ok := byID[key]; ok {
				out[i].Score += score
				out[i].Match = "both"
				continue
			}
			h.Score, h.Match = score, how
			byID[key] = len(out)
			out = append(out, h)
		}
	}
	add(text, "text")
	add(meaning, "meaning")
	sortHits(out)
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// sortHits orders hits by score, best first, keeping the order of ties.
func sortHits(hits []Hit) {
	slices.SortStableFunc(hits, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) })
}

// meaningExcerpt is the excerpt of a note found by meaning: the start of
// its best chunk, on one line of about 200 characters.
func meaningExcerpt(content string, start, end int) string {
	if start < 0 || end > len(content) || start > end {
		start, end = 0, len(content)
	}
	s := strings.Join(strings.Fields(content[start:end]), " ")
	return clipRunes(s, 200)
}

// embedChange embeds the text that change c gives note old: nil when the
// title and content stay as they are.
func embedChange(ctx context.Context, e Embedder, old Note, c Change, cache map[string][]float32) ([]Chunk, error) {
	n, err := applyChange(old, c)
	if err != nil {
		return nil, err
	}
	if n.Title == old.Title && n.Content == old.Content {
		return nil, nil
	}
	return embedNote(ctx, e, n.Title, n.Content, cache)
}

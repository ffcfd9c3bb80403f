package notestest

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/agentcli/agent/tools/notes"
)

// words are real English words, the most frequent first (counted in the
// comments of the Go source tree), so that a Zipf draw over their ranks
// gives text whose index looks like a real one.
//
//go:embed words.txt
var wordList string

// Corpus generates notes of about 1 KB of words with a Zipf-like
// frequency, deterministically for its seed, and counts in how many notes
// each word occurs, so benchmarks can pick rare, medium and common query
// words.
type Corpus struct {
	words []string
	rng   *rand.Rand
	zipf  *rand.Zipf
	df    map[string]int
	n     int
	bytes int64
}

// NewCorpus returns a generator seeded with seed.
func NewCorpus(seed uint64) *Corpus {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	words := strings.Fields(wordList)
	return &Corpus{words: words, rng: rng, zipf: rand.NewZipf(rng, 1.07, 2, uint64(len(words)-1)), df: map[string]int{}}
}

func (c *Corpus) word() string { return c.words[c.zipf.Uint64()] }

// Next returns the next note: a title of 3 to 7 words, about 1 KB of
// content in sentences and paragraphs, one of 40 folders, 0 to 3 of 30
// tags.
func (c *Corpus) Next() notes.NewNote {
	seen := map[string]bool{}
	var title []string
	for range 3 + c.rng.IntN(5) {
		w := c.word()
		title = append(title, w)
		seen[w] = true
	}
	var b strings.Builder
	target := 800 + c.rng.IntN(450)
	for b.Len() < target {
		n := 6 + c.rng.IntN(14)
		for i := range n {
			w := c.word()
			seen[w] = true
			if i == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			} else {
				b.WriteByte(' ')
			}
			b.WriteString(w)
		}
		b.WriteString(". ")
		if c.rng.IntN(5) == 0 {
			b.WriteString("\n\n")
		}
	}
	for w := range seen {
		c.df[w]++
	}
	c.n++
	var tags []string
	for range c.rng.IntN(4) {
		tags = append(tags, fmt.Sprintf("tag%d", c.rng.IntN(30)))
	}
	n := notes.NewNote{
		Title:   strings.Join(title, " "),
		Content: b.String(),
		Folder:  fmt.Sprintf("/area%d/topic%d/", c.rng.IntN(8), c.rng.IntN(5)),
		Tags:    tags,
	}
	c.bytes += int64(len(n.Title) + len(n.Content))
	return n
}

// TextBytes is the size of the titles and contents generated so far.
func (c *Corpus) TextBytes() int64 { return c.bytes }

// Words returns k words whose share of the notes generated so far is
// nearest to share (0.15 for a common word, 0.0005 for a rare one).
func (c *Corpus) Words(share float64, k int) []string {
	type cand struct {
		w    string
		dist float64
	}
	var cs []cand
	for w, df := range c.df {
		d := float64(df)/float64(c.n) - share
		if d < 0 {
			d = -d
		}
		cs = append(cs, cand{w, d})
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if a.dist != b.dist {
			if a.dist < b.dist {
				return -1
			}
			return 1
		}
		return strings.Compare(a.w, b.w)
	})
	out := make([]string, 0, k)
	for _, c := range cs[:min(k, len(cs))] {
		out = append(out, c.w)
	}
	return out
}

// Share is the fraction of the notes generated so far that hold w.
func (c *Corpus) Share(w string) float64 { return float64(c.df[w]) / float64(max(c.n, 1)) }

package notestest

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/tools/notes"
)

// testStemming: a word finds its other forms ("cache" finds "caches").
func testStemming(t *testing.T, s notes.Store) {
	create(t, s, "speed", "the proxy caches every answer", "")
	create(t, s, "other", "nothing to see", "")
	for _, c := range []struct{ q, want string }{
		{"cache", "speed"},
		{"caching", "speed"},
		{"answers", "speed"},
	} {
		r := search(t, s, notes.SearchOptions{Query: c.q, Mode: notes.ModeText})
		if got := titles(r); !sameSet(got, strings.Fields(c.want)) || r.Fallback != "" {
			t.Errorf("Search(%q) = %v (fallback %q), want %s", c.q, got, r.Fallback, c.want)
		}
	}
}

// testTagsAndFolders: a tag and a folder's name find their notes, and
// tag: and folder: limit a word to them.
func testTagsAndFolders(t *testing.T, s notes.Store) {
	create(t, s, "tagged", "body text", "/", "kubernetes")
	create(t, s, "filed", "body text", "/infra/kubernetes/")
	create(t, s, "mentions", "we run kubernetes at home", "/")
	r := search(t, s, notes.SearchOptions{Query: "kubernetes", Mode: notes.ModeText})
	if got := titles(r); !sameSet(got, []string{"tagged", "filed", "mentions"}) {
		t.Errorf("Search(kubernetes) = %v, want the tagged, the filed and the mentioning note", got)
	}
	for _, c := range []struct{ q, want string }{
		{"tag:kubernetes", "tagged"},
		{"folder:kubernetes", "filed"},
		{"content:kubernetes", "mentions"},
	} {
		r := search(t, s, notes.SearchOptions{Query: c.q, Mode: notes.ModeText})
		if got := titles(r); !sameSet(got, strings.Fields(c.want)) || r.Fallback != "" {
			t.Errorf("Search(%q) = %v (fallback %q), want %s", c.q, got, r.Fallback, c.want)
		}
	}
}

// testPunctuated: words written with punctuation are searched as the
// words they hold, without a warning.
func testPunctuated(t *testing.T, s notes.Store) {
	create(t, s, "hyphen", "a well-known fact about e-mail", "")
	create(t, s, "lang", "we write c++ and self-hosted tools", "")
	create(t, s, "apart", "well, it is known that mail is slow", "")
	for _, c := range []struct{ q, want string }{
		{"well-known", "hyphen"},
		{"e-mail", "hyphen"},
		{"c++", "lang"},
		{"-hosted", "lang"},
		{"self-hosted", "lang"},
		{"well-known OR self-hosted", "hyphen lang"},
		{`"well-known fact"`, "hyphen"},
	} {
		r := search(t, s, notes.SearchOptions{Query: c.q, Mode: notes.ModeText})
		if got := titles(r); !sameSet(got, strings.Fields(c.want)) || r.Fallback != "" {
			t.Errorf("Search(%q) = %v (fallback %q), want %s and no warning", c.q, got, r.Fallback, c.want)
		}
	}
}

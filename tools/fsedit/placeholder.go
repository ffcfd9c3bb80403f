package fsedit

import (
	"regexp"
	"strings"
	"sync"
)

// The phrases are compiled on first use: start-up pays nothing.

// placeholderPhrase matches the words models use when they stand in for
// text they did not repeat: "rest of the file unchanged", "... existing
// code ...", "remaining methods stay the same".
var placeholderPhrase = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(rest of (the )?(file|code|content|document|section|function|class|module|implementation|text)` +
		`|(existing|remaining|previous|other|original|unchanged) (code|content|text|lines|implementation|methods|functions|sections?|imports|tests)` +
		`|\b(remains?|stays?|is|are|kept) (the )?(same|unchanged|as (it )?(is|was|before))` +
		`|same as (before|above|original)|\bunchanged\b|\bomitted\b|for brevity)`)
})

// strongPhrase matches the phrases that stand in for text whatever the
// length of the new content: a comment holding only one of them is never
// real code ("// rest unchanged", "# ... existing code ...").
var strongPhrase = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(rest of (the )?(file|code|content|document|section|function|class|module|implementation|text)( is| stays| remains)? (unchanged|the same|as (it )?(is|was|before))` +
		`|\brest (is )?unchanged|\b(existing|unchanged|remaining|previous|original) code\b|\b(remains?|stays?) the same|\.\.\. ?existing|…\s?existing)`)
})

// commentLead are the ways a comment line starts in the supported types.
var commentLead = []string{"//", "#", "/*", "*", "<!--", "--", ";", "%", "{/*", "'''", `"""`, "rem "}

// placeholderLine reports whether one line reads as a placeholder: a short
// comment (or bare line) with a placeholder phrase, or an ellipsis alone.
func placeholderLine(line string, phrase *regexp.Regexp) bool {
	t := strings.TrimSpace(line)
	if t == "" || len(t) > 120 {
		return false
	}
	// A bare "..." or "pass" is code (Python stubs, Protocol bodies, Go
	// doc examples), never on its own a placeholder.
	bare := strings.Trim(t, "/#*-<>!;%{}()[] \t")
	if bare == "..." || bare == "…" || bare == "pass" || bare == "" {
		return false
	}
	isComment := false
	for _, c := range commentLead {
		if strings.HasPrefix(t, c) {
			isComment = true
			break
		}
	}
	hasEllipsis := strings.Contains(t, "...") || strings.Contains(t, "…")
	if !isComment && !hasEllipsis && !strings.HasPrefix(t, "[") {
		return false
	}
	return phrase.MatchString(t)
}

// findPlaceholder returns the first line of added (1-based) that reads as
// a placeholder and is not in the old text: the sign of a model that meant
// "keep the rest" but sent a comment instead. When the new text is shorter
// than the old, any placeholder wording counts; otherwise only the strong
// phrases ("rest unchanged", "existing code"), which real comments do not
// use on a line of their own. old holds the old lines (trimmed) that are
// known; a line of added found there was already in the file and is no
// evidence.
func findPlaceholder(added []string, oldCount int, old map[string]bool) (int, string, bool) {
	phrase := strongPhrase()
	if len(added) < oldCount {
		phrase = placeholderPhrase()
	}
	for i, l := range added {
		if placeholderLine(l, phrase) && !old[strings.TrimSpace(l)] {
			return i + 1, strings.TrimSpace(l), true
		}
	}
	return 0, "", false
}

// lineSet returns the trimmed lines of text, for findPlaceholder.
func lineSet(lines []string) map[string]bool {
	m := make(map[string]bool, len(lines))
	for _, l := range lines {
		m[strings.TrimSpace(l)] = true
	}
	return m
}

package fsedit

import (
	"regexp"
	"strings"
)

// placeholderPhrase matches the words models use when they stand in for
// text they did not repeat: "rest of the file unchanged", "... existing
// code ...", "remaining methods stay the same".
var placeholderPhrase = regexp.MustCompile(`(?i)(rest of (the )?(file|code|content|document|section|function|class|module|implementation|text)` +
	`|(existing|remaining|previous|other|original|unchanged) (code|content|text|lines|implementation|methods|functions|sections?|imports|tests)` +
	`|\b(remains?|stays?|is|are|kept) (the )?(same|unchanged|as (it )?(is|was|before))` +
	`|same as (before|above|original)|\bunchanged\b|\bomitted\b|for brevity)`)

// commentLead are the ways a comment line starts in the supported types.
var commentLead = []string{"//", "#", "/*", "*", "<!--", "--", ";", "%", "{/*", "'''", `"""`, "rem "}

// placeholderLine reports whether one line reads as a placeholder: a short
// comment (or bare line) with a placeholder phrase, or an ellipsis alone.
func placeholderLine(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" || len(t) > 120 {
		return false
	}
	bare := strings.Trim(t, "/#*-<>!;%{}()[] \t")
	if bare == "..." || bare == "…" {
		return true
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
	return placeholderPhrase.MatchString(t)
}

// findPlaceholder returns the first line of added (1-based) that reads as
// a placeholder and is not in the old text, when the new text is shorter
// than the old: the sign of a model that meant "keep the rest" but sent a
// comment instead. old holds the old lines (trimmed) that are known; a
// line of added found there was already in the file and is no evidence.
func findPlaceholder(added []string, oldCount int, old map[string]bool) (int, string, bool) {
	if len(added) >= oldCount {
		return 0, "", false
	}
	for i, l := range added {
		if placeholderLine(l) && !old[strings.TrimSpace(l)] {
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

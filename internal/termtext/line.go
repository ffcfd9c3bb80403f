package termtext

import (
	"strings"
	"unicode/utf8"
)

// OneLine folds text onto one line: every run of white space, line
// breaks included, becomes one space, and the ends are trimmed. A caller
// that must keep the spacing of text already on one line (it may quote
// what the model sent) folds only text holding a line break.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// RunePrefix returns the longest prefix of s of at most n bytes that does
// not cut a UTF-8 character in half, to shorten what is shown (echoed
// values, long lines) without making invalid UTF-8.
func RunePrefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Clip shortens s to at most n bytes, cut at a character's start, and
// marks the cut with "…".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return RunePrefix(s, n) + "…"
}

// Line is untrusted text as one line of a message of at most n bytes
// (plus the "…" of a cut): folded, escaped for a terminal and clipped, so
// that a provider's multi-line error page cannot flood the screen nor
// repaint it.
func Line(s string, n int) string {
	return Clip(Escape(OneLine(s)), n)
}

package tools

import "unicode/utf8"

// RunePrefix returns the longest prefix of s of at most n bytes that does
// not cut a UTF-8 character in half. Tools use it to shorten what they
// show (echoed values, long lines) without making invalid UTF-8.
func RunePrefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// HiddenRune reports the characters that make text read differently from
// what it is, and that no file name needs: the C1 controls (a terminal may
// act on them like escape sequences), the bidirectional overrides,
// embeddings, isolates and marks, the line and paragraph separators, and
// the invisible ones (zero-width space, word joiner, invisible operators,
// soft hyphen, Mongolian vowel separator, byte-order mark). The zero-width
// joiner and non-joiner stay: emoji sequences and Persian script need them.
//
// It is the one rule set of the project: path checks refuse these
// characters, terminal output shows them escaped.
func HiddenRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r >= 0x2060 && r <= 0x2064:
		return true
	}
	switch r {
	case 0x200b, 0x200e, 0x200f, 0x061c, 0x2028, 0x2029, 0xfeff, 0x00ad, 0x180e:
		return true
	}
	return false
}

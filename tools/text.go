package tools

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

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

// longBlanks is the longest run of spaces or tabs ShowBlanks leaves as it
// is: indentation and alignment read fine, a screenful of blanks does not.
const longBlanks = 3

// ShowBlanks makes the blank space of text a person must read exactly (a
// command or an argument they are asked to approve) visible: a run of
// more than three spaces becomes "␠×N", of tabs "⇥×N" (a mixed run is
// spelled out, ␠ and ⇥), and the space characters that look like a plain
// space but are not one (no-break, en, em, ideographic...) are written as
// escapes (\u00a0). So `pytest` followed by 300 spaces and `; rm -f x`
// cannot pass for a test run at the edge of a window, and one word
// cannot pass for two. Newlines are left as they are; the invisible
// characters are HiddenRune's, which the terminal writers escape.
func ShowBlanks(s string) string {
	if !strings.Contains(s, "    ") && !strings.Contains(s, "\t\t") && !strings.ContainsFunc(s, oddSpace) && !strings.Contains(s, " \t") && !strings.Contains(s, "\t ") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j == i {
			r, size := utf8.DecodeRuneInString(s[i:])
			if oddSpace(r) {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
			continue
		}
		run := s[i:j]
		switch {
		case len(run) <= longBlanks:
			b.WriteString(run)
		case strings.Count(run, " ") == len(run):
			fmt.Fprintf(&b, "␠×%d", len(run))
		case strings.Count(run, "\t") == len(run):
			fmt.Fprintf(&b, "⇥×%d", len(run))
		default:
			b.WriteString(strings.NewReplacer(" ", "␠", "\t", "⇥").Replace(run))
		}
		i = j
	}
	return b.String()
}

// oddSpace reports a space character other than the ASCII ones.
func oddSpace(r rune) bool { return r >= 0x80 && unicode.IsSpace(r) }

package termtext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

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
// characters are Hidden's, which Escape shows.
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

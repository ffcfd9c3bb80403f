package termtext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// longBlanks is the longest run of spaces or tabs ShowBlanks leaves as it
// is: indentation and alignment read fine, a screenful of blanks does not.
// Runs of one invisible or combining character longer than this are
// counted too.
const longBlanks = 3

// maxBlankLines is the longest run of blank lines ShowBlanks leaves as it
// is; a longer one becomes one line "[N blank lines]".
const maxBlankLines = 2

// ShowBlanks makes the blank space of text a person must read exactly (a
// command or an argument they are asked to approve) visible: a run of
// more than three spaces becomes "␠×N", of tabs "⇥×N" (a mixed run is
// spelled out, ␠ and ⇥), and the space characters that look like a plain
// space but are not one (no-break, en, em, ideographic...) are written as
// escapes (\u00a0). A run of more than three of one character that shows
// as nothing or blank (the padding and tag characters Hidden names, such
// as U+2800 or U+3164, or a combining mark stacked on one letter) becomes
// "\u2800×4000", and a run of more than two blank lines (empty, or blank
// characters only) one line "[N blank lines]". So `pytest` followed by
// 300 spaces, 4000 braille blanks or 200 newlines and then `; rm -f x`
// cannot pass for a test run at the edge of a window, and one word cannot
// pass for two. Single invisible characters are Hidden's, which Escape
// shows.
func ShowBlanks(s string) string {
	if !strings.Contains(s, "    ") && !strings.Contains(s, "\t\t") && !strings.ContainsFunc(s, oddRune) && !strings.Contains(s, " \t") && !strings.Contains(s, "\t ") && !strings.Contains(s, "\n\n\n") {
		return s
	}
	s = countBlankLines(s)
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j == i {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r >= 0x80 && (Hidden(r) || unicode.Is(unicode.Mn, r) || oddSpace(r)) {
				n := 1
				for strings.HasPrefix(s[i+n*size:], s[i:i+size]) {
					n++
				}
				switch {
				case n > longBlanks && size > 0:
					fmt.Fprintf(&b, `\u%04x×%d`, r, n)
					i += n * size
					continue
				case oddSpace(r):
					fmt.Fprintf(&b, `\u%04x`, r)
					i += size
					continue
				}
			}
			b.WriteString(s[i : i+size])
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

// countBlankLines replaces each run of more than maxBlankLines blank
// lines of s by one line saying how many there were.
func countBlankLines(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); {
		j := i
		// The text after a final newline is not a line of its own.
		for j < len(lines) && blankLine(lines[j]) && !(j == len(lines)-1 && lines[j] == "") {
			j++
		}
		if n := j - i; n > maxBlankLines {
			out = append(out, fmt.Sprintf("[%d blank lines]", n))
			i = j
			continue
		}
		if j == i {
			j++
		}
		out = append(out, lines[i:j]...)
		i = j
	}
	return strings.Join(out, "\n")
}

// blankLine reports a line that shows as nothing: white space, and the
// characters Hidden names (a line of U+3164 fillers looks empty), only.
func blankLine(l string) bool {
	for _, r := range l {
		if !unicode.IsSpace(r) && !Hidden(r) {
			return false
		}
	}
	return true
}

// oddSpace reports a space character other than the ASCII ones.
func oddSpace(r rune) bool { return r >= 0x80 && unicode.IsSpace(r) }

// oddRune reports a character ShowBlanks may have to show: a non-ASCII
// space, a Hidden one, or a combining mark.
func oddRune(r rune) bool {
	return r >= 0x80 && (unicode.IsSpace(r) || Hidden(r) || unicode.Is(unicode.Mn, r))
}

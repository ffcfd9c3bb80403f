package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Hidden reports the characters that make text read differently from
// what it is, and that no file name needs: the C1 controls (a terminal may
// act on them like escape sequences), the bidirectional overrides,
// embeddings, isolates and marks, the line and paragraph separators, and
// the invisible ones (zero-width space, word joiner, invisible operators,
// soft hyphen, Mongolian vowel separator, byte-order mark), the blank
// letters that are not spaces (the braille blank U+2800 and the Hangul
// fillers U+115F, U+1160, U+3164 and U+FFA0: a run of them pads a command
// like spaces do, but no space rule sees them) and the tag characters
// U+E0000-U+E007F (invisible ASCII look-alikes: text the person does not
// see but a model reads). The zero-width joiner and non-joiner stay: emoji
// sequences and Persian script need them.
//
// It is the one rule set of the project: path checks refuse these
// characters, terminal output shows them escaped.
func Hidden(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r >= 0x2060 && r <= 0x2064:
		return true
	case r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	switch r {
	case 0x200b, 0x200e, 0x200f, 0x061c, 0x2028, 0x2029, 0xfeff, 0x00ad, 0x180e,
		0x2800, 0x115f, 0x1160, 0x3164, 0xffa0:
		return true
	}
	return false
}

// Escape makes untrusted text safe to show on a terminal: every control
// character but newline and tab is written visibly (`\r`, `\x1b`,
// `\u202e`), so that a file or message cannot move the cursor, erase a
// line or recolour the screen — for instance to hide a command from an
// approval prompt with "\r\x1b[2K". A carriage return right before a
// newline is kept: it is how CRLF text ends its lines and hides nothing.
// The characters Hidden names and invalid UTF-8 bytes are shown as
// escapes (\u200b, \xff) too.
func Escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			b.WriteByte('\r')
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\v':
			b.WriteString(`\v`)
		case r == 0:
			b.WriteString(`\0`)
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case Hidden(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Drawn is Escape for text laid out in columns (the chat's cards and
// questions): a tab becomes four spaces and a CRLF line end a newline,
// since a tab stop or a carriage return would move what follows away
// from where the layout measured it.
func Drawn(s string) string {
	s = Escape(s)
	if strings.ContainsAny(s, "\t\r") {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\t", "    ")
	}
	return s
}

// needsEscape is the fast path: most text has nothing to escape.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			return true
		}
		if c >= 0x80 {
			for _, r := range s[i:] {
				if r == utf8.RuneError || r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || Hidden(r) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// Strip is text as plain text, for output that is not a terminal (a
// pipe, a file): terminal control sequences are removed, not passed on to
// whatever shows the output later, and not shown escaped either, which
// would put backslashes into the text. Removed: escape sequences (CSI
// such as "\x1b[31m", OSC such as a window title "\x1b]0;...\a", the
// string sequences DCS, APC, PM and SOS, two-byte escapes), the C1
// controls, and every other control character but newline and tab; a
// carriage return only where it ends a CRLF line is kept. Everything
// else, invalid UTF-8 included, stays as it is.
func Strip(s string) string {
	if !hasControl(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b:
			i = skipEscape(s, i+1)
			continue
		case r == 0x9b: // C1 CSI
			i = skipCSI(s, i+size)
			continue
		case r == 0x90 || r == 0x9d || r == 0x98 || r == 0x9e || r == 0x9f: // C1 DCS, OSC, SOS, PM, APC
			i = skipString(s, i+size)
			continue
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n', r == '\n', r == '\t':
			b.WriteByte(s[i])
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			// dropped
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// hasControl is Strip's fast path: most text holds no control character.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c == 0xc2 {
			return true // 0xc2 leads the UTF-8 of every C1 control
		}
	}
	return false
}

// skipEscape returns the index after the escape sequence whose ESC was
// just before i.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// Intermediate bytes, then one final byte (ESC c, ESC ( B, ESC 7).
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips a control sequence's parameter and intermediate bytes and
// its final byte.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString skips a string sequence up to its terminator: BEL, ESC \ or
// the C1 ST. An unterminated one runs to the end of a line at most, so a
// stray ESC ] does not swallow the rest of the text.
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case strings.HasPrefix(s[i:], "\u009c"):
			return i + len("\u009c")
		case s[i] == '\n':
			return i
		}
		i++
	}
	return i
}

package main

import (
	"strings"
	"unicode/utf8"
)

// plainText is note text as plain text, for output that is not a
// terminal (a pipe, a file): terminal control sequences are removed, not
// passed on to whatever shows the output later, and not shown escaped
// either, which would put backslashes into the text. Removed: escape
// sequences (CSI such as "\x1b[31m", OSC such as a window title
// "\x1b]0;...\a", the string sequences DCS, APC, PM and SOS, two-byte
// escapes), the C1 controls, and every other control character but
// newline and tab; a carriage return only where it ends a CRLF line is
// kept. Everything else, invalid UTF-8 included, stays as it is. --json
// gives the exact text.
func plainText(s string) string {
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

// hasControl is the fast path: most text holds no control character.
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
// stray ESC ] does not swallow the rest of a note.
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

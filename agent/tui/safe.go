package tui

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// visible makes model-controlled text safe to draw: control characters
// other than newline and tab are shown as escapes (\x1b, \r, \u202e), so a
// reply or a file cannot move the cursor, recolour the screen or hide part
// of an approval question. Tabs become spaces, since their width would
// otherwise depend on the column.
func visible(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteString("    ")
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CRLF line ends hide nothing.
		case r == '\n':
			b.WriteByte('\n')
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\x%02x`, r)
		case hiddenRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// hiddenRune reports runes that change how text reads without being seen:
// bidirectional overrides and isolates, line separators, zero-width space
// and the byte-order mark.
func hiddenRune(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200b, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029, r == 0xfeff, r == 0x061c:
		return true
	}
	return false
}

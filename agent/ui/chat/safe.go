package chat

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentcli/agent/tools"
)

// visible makes model-controlled text safe to draw: control characters
// other than newline and tab, and the characters tools.HiddenRune names,
// are shown as escapes (\x1b, \r, \u202e), so a reply or a file cannot
// move the cursor, recolour the screen or hide part of an approval
// question. Tabs become spaces, since their width would otherwise depend
// on the column.
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
		case tools.HiddenRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

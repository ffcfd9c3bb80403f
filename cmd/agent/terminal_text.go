package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/agentcli/agent/tools"
)

// safeText makes model-controlled text safe to show on a terminal: every
// control character but newline and tab is written visibly (`\r`, `\x1b`,
// `\u202e`), so that a file or message cannot move the cursor, erase a
// line or recolour the screen — for instance to hide a command from the
// approval prompt with "\r\x1b[2K". A carriage return right before a
// newline is kept: it is how CRLF text ends its lines and hides nothing.
// Invalid UTF-8 bytes are shown as \xNN too.
func safeText(s string) string {
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
		case isHiddenRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// needsEscape is the fast path: most text has nothing to escape.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || c >= 0x80 {
			if c >= 0x80 {
				return slowNeedsEscape(s[i:])
			}
			return true
		}
	}
	return false
}

func slowNeedsEscape(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || isHiddenRune(r) {
			return true
		}
	}
	return false
}

// isHiddenRune is the project's one rule set of characters that hide
// what text is (tools.HiddenRune), shared with the file tools' path checks.
func isHiddenRune(r rune) bool { return tools.HiddenRune(r) }

// safeWriter passes everything written through safeText, for output that
// is all meant for a terminal (the demo).
type safeWriter struct{ w io.Writer }

func (s safeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, safeText(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

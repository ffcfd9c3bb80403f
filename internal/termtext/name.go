package termtext

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Name is a file name as a listing shows it, one entry a line: quoted
// (Go syntax) when it would break that layout (control characters, line
// separators), hide what it is (format characters: a right-to-left
// override makes "rtl\u202etxt.exe" read reversed, a zero-width space
// makes two names look alike) or is not valid UTF-8; as it is otherwise.
func Name(s string) string {
	if !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	for _, r := range s {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r) {
			return strconv.Quote(s)
		}
	}
	return s
}

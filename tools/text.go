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

package termtext

import "testing"

// TestDrawn: Drawn escapes as Escape does, and lays tabs and CRLF line
// ends out as the columns they take.
func TestDrawn(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"a\tb", "a    b"},
		{"one\r\ntwo", "one\ntwo"},
		{"lone\rreturn", `lone\rreturn`},
		{"\x1b[2Khidden", `\x1b[2Khidden`},
		{"rtl\u202eevil", `rtl\u202eevil`},
	} {
		if got := Drawn(c.in); got != c.want {
			t.Errorf("Drawn(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

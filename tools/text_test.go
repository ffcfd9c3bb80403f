package tools_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentcli/agent/tools"
)

func TestRunePrefix(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"hello", 10, "hello"},
		{"hello", 3, "hel"},
		{"héllo", 2, "h"}, // é is two bytes: never cut in half
		{"日本語", 4, "日"},
		{"日本語", 6, "日本"},
		{"abc", 0, ""},
	} {
		got := tools.RunePrefix(tc.in, tc.n)
		if got != tc.want || !utf8.ValidString(got) {
			t.Errorf("RunePrefix(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestHiddenRune(t *testing.T) {
	for _, r := range []rune{0x85, 0x202e, 0x2066, 0x200b, 0x2060, 0x00ad, 0xfeff, 0x200e, 0x2028} {
		if !tools.HiddenRune(r) {
			t.Errorf("HiddenRune(%U) = false, want true", r)
		}
	}
	// Joiners, ordinary letters and emoji stay visible as they are.
	for _, r := range []rune{'a', 'é', '日', 0x200d, 0x200c, 0x1f600} {
		if tools.HiddenRune(r) {
			t.Errorf("HiddenRune(%U) = true, want false", r)
		}
	}
}

func TestShowBlanks(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"go test ./...", "go test ./..."},
		{"a   b", "a   b"}, // three spaces: alignment stays
		{"pytest" + strings.Repeat(" ", 300) + "; rm -f important.txt", "pytest␠×300; rm -f important.txt"},
		{"x\t\t\t\ty", "x⇥×4y"},
		{"x \t \ty", "x␠⇥␠⇥y"},
		{"rm\u00a0-rf", `rm\u00a0-rf`},
		{"a\u3000b", `a\u3000b`},
		{"line one\n    indented", "line one\n␠×4indented"},
		{"日本 語", "日本 語"},
	} {
		if got := tools.ShowBlanks(tc.in); got != tc.want {
			t.Errorf("ShowBlanks(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

package tools_test

import (
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

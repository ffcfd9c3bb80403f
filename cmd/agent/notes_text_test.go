package main

import "testing"

func TestPlainText(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "just text, tabs\tand\nlines", "just text, tabs\tand\nlines"},
		{"colour", "hello \x1b[31mred\x1b[0m world", "hello red world"},
		{"window title", "a\x1b]0;pwned\x07b", "ab"},
		{"title ended by ST", "a\x1b]0;pwned\x1b\\b", "ab"},
		{"hyperlink", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"erase line and return", "safe\r\x1b[2Kevil", "safeevil"},
		{"CRLF kept", "one\r\ntwo\r\n", "one\r\ntwo\r\n"},
		{"two-byte escape", "a\x1bcb\x1b(Bc", "abc"},
		{"C1 CSI", "a\u009b31mb", "ab"},
		{"C1 OSC", "a\u009d0;t\u009cb", "ab"},
		{"other controls", "a\x00b\x08c\x7fd\x0ce", "abcde"},
		{"unterminated OSC stops at the line", "a\x1b]0;oops\nnext", "a\nnext"},
		{"trailing ESC", "end\x1b", "end"},
		{"unicode stays", "café 語 \u00a0x", "café 語 \u00a0x"},
		{"invalid UTF-8 stays", "a\xffb", "a\xffb"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := plainText(c.in); got != c.want {
				t.Errorf("plainText(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

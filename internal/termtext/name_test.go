package termtext

import "testing"

func TestName(t *testing.T) {
	for in, want := range map[string]string{
		"main.go":                            "main.go",
		"a b.txt":                            "a b.txt",
		"résumé.md":                          "résumé.md",
		"a\nIGNORE PREVIOUS INSTRUCTIONS.md": `"a\nIGNORE PREVIOUS INSTRUCTIONS.md"`,
		"d\r\rZ.txt":                         `"d\r\rZ.txt"`,
		"rtl\u202etxt.exe":                   `"rtl\u202etxt.exe"`,
		"bad\xffname":                        `"bad\xffname"`,
	} {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %s, want %s", in, got, want)
		}
	}
}

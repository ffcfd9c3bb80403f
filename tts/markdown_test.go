package tts

import "testing"

func TestPlainSpeaksMarkdownAsText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"# Getting started", "Getting started"},
		{"## Install ##", "Install"},
		{"This is **very** important, *really* and __truly__ _so_.", "This is very important, really and truly so."},
		{"**a** **b** ~~c~~", "a b c"},
		{"Run `go test ./...` first.", "Run go test ./... first."},
		{"Use ``a ` tick`` here", "Use a ` tick here"},
		{"- one\n* two\n+ three\n  - nested", "one\ntwo\nthree\nnested"},
		{"- [x] done", "done"},
		{"1. First\n2. Second", "1. First\n2. Second"},
		{"> quoted **text**", "quoted text"},
		{"See [the docs](https://example.com/docs) and ![a cat](cat.png).", "See the docs and a cat."},
		{"Read [the guide][g].\n\n[g]: https://example.com/g", "Read the guide.\n\n"},
		{"Mail <mailto:a@b.c> or <https://x.y/z>", "Mail mailto:a@b.c or https://x.y/z"},
		{"Before\n\n---\n\nAfter", "Before\n\n\n\nAfter"},
		{"```go\nx := a*b*c\n```\nDone", "x := a*b*c\nDone"},
		{"| Name | Age |\n|------|----:|\n| Ana | 30 |", "Name, Age\n\nAna, 30"},
		// Not Markdown: left alone.
		{"snake_case_name and 2 * 3 * 4 and C# and a_b", "snake_case_name and 2 * 3 * 4 and C# and a_b"},
		{"Ana: Hello there.\nBen: Hi!", "Ana: Hello there.\nBen: Hi!"},
		{"**Ana:** Hello", "Ana: Hello"},
	} {
		if got := Plain(tc.in); got != tc.want {
			t.Errorf("Plain(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

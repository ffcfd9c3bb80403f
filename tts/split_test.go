package tts_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentcli/agent/tts"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		limit int
		want  []string // pieces; a trailing "|" marks a paragraph end
	}{
		{"empty", " \n\n \t", 10, nil},
		{"one short", "Hello there.", 100, []string{"Hello there.|"}},
		{"paragraphs never share", "One.\n\nTwo.\r\n\r\nThree.", 100, []string{"One.|", "Two.|", "Three.|"}},
		{"blank line with spaces", "One.\n   \nTwo.", 100, []string{"One.|", "Two.|"}},
		{"sentences packed", "Aa aa. Bb bb! Cc cc? Dd dd.", 14, []string{"Aa aa. Bb bb!", "Cc cc? Dd dd.|"}},
		{"no cut inside 3.14 or e.g.", "Pi is 3.14 and e.g.this stays. Next one.", 31, []string{"Pi is 3.14 and e.g.this stays.", "Next one.|"}},
		{"quote after the full stop", `He said "go." Then left.`, 14, []string{`He said "go."`, "Then left.|"}},
		{"lines before sentences", "Ana: Hi. Yes.\nBen: Hello.", 16, []string{"Ana: Hi. Yes.", "Ben: Hello.|"}},
		{"clauses", "one, two, three, four", 10, []string{"one, two,", "three,", "four|"}},
		{"words", "alpha beta gamma delta", 11, []string{"alpha beta", "gamma delta|"}},
		{"inside a word", "abcdefghij", 4, []string{"abcd", "efgh", "ij|"}},
		{"no limit", "a. b.\n\nc.", 0, []string{"a. b.|", "c.|"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range tts.Split(tt.text, tt.limit) {
				s := p.Text
				if p.ParagraphEnd {
					s += "|"
				}
				got = append(got, s)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Split(%q, %d) = %q, want %q", tt.text, tt.limit, got, tt.want)
			}
		})
	}
}

func TestSplitLimitsAndRunes(t *testing.T) {
	text := strings.Repeat("Ünïcødé wörds ǵo hère, ánd thëy nèvér énd ", 200) + "\n\n" + strings.Repeat("日本語の文章です。", 300)
	for _, limit := range []int{1, 7, 50, 333, 4000} {
		pieces := tts.Split(text, limit)
		for _, p := range pieces {
			if len(p.Text) > max(limit, 4) || !utf8.ValidString(p.Text) || p.Text == "" {
				t.Fatalf("limit %d: bad piece %q", limit, p.Text)
			}
		}
		// Nothing lost, nothing changed, but the white space at the cuts.
		if strings.Join(strings.Fields(joinTexts(pieces)), "") != strings.Join(strings.Fields(text), "") {
			t.Fatalf("limit %d: text lost or changed", limit)
		}
	}
}

func joinTexts(ps []tts.Piece) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Text)
	}
	return b.String()
}

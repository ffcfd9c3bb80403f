package tts

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Piece is one part of a text, small enough for one engine request.
type Piece struct {
	Text string
	// ParagraphEnd is true for the last piece of a paragraph: the join
	// after it gets the longer pause.
	ParagraphEnd bool
}

// Split cuts text into pieces of at most limit bytes. Paragraphs (blocks
// separated by a blank line) never share a piece, so that each paragraph
// boundary gets a real pause. A paragraph longer than limit is cut at line
// breaks (dialogue lines stay whole), then sentence ends, then clause
// punctuation, then spaces, and only as a last resort inside a word (at a
// character boundary). Empty paragraphs are dropped. A limit of 0 or less
// means no limit.
func Split(text string, limit int) []Piece {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var out []Piece
	for _, para := range paragraphs(text) {
		parts := cut(para, limit, 0)
		for i, p := range parts {
			out = append(out, Piece{Text: p, ParagraphEnd: i == len(parts)-1})
		}
	}
	return out
}

// paragraphs returns the trimmed, non-empty blocks of text separated by
// lines that hold only white space.
func paragraphs(text string) []string {
	var out []string
	var cur []string
	flush := func() {
		if p := strings.TrimSpace(strings.Join(cur, "\n")); p != "" {
			out = append(out, p)
		}
		cur = cur[:0]
	}
	for line := range strings.SplitSeq(text, "\n") {
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		cur = append(cur, strings.TrimRightFunc(line, unicode.IsSpace))
	}
	flush()
	return out
}

// boundaries, strongest first: where each level may cut. A cut falls just
// after the boundary; the white space there is dropped.
const (
	levelLine = iota
	levelSentence
	levelClause
	levelSpace
	levelRune
)

// cut splits s into parts of at most limit bytes, at boundaries of the
// given level or weaker, packing as many units as fit into each part. A
// part is a stretch of s as written (its own spaces and line breaks), so
// text without spaces between sentences (Japanese) stays as it was.
func cut(s string, limit, level int) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	if limit <= 0 || len(s) <= limit {
		return []string{s}
	}
	if level == levelRune {
		return cutRunes(s, limit)
	}
	ends := unitEnds(s, level)
	if len(ends) <= 1 {
		return cut(s, limit, level+1)
	}
	var out []string
	start, last := 0, 0 // the part being packed is s[start:last]
	for _, end := range ends {
		if last > start && len(strings.TrimSpace(s[start:end])) > limit {
			out = append(out, cut(s[start:last], limit, level+1)...)
			start = last
		}
		last = end
	}
	return append(out, cut(s[start:], limit, level+1)...)
}

// unitEnds returns where the units of s end: just after each boundary of
// level, and at the end of s.
func unitEnds(s string, level int) []int {
	var ends []int
	for i, r := range s {
		switch level {
		case levelLine:
			if r == '\n' {
				ends = append(ends, i+1)
			}
		case levelSpace:
			if unicode.IsSpace(r) {
				ends = append(ends, i+utf8.RuneLen(r))
			}
		case levelSentence, levelClause:
			if !endsUnit(r, level) {
				continue
			}
			// A boundary is punctuation (and closing quotes or brackets)
			// followed by white space, or by anything after CJK
			// punctuation: "e.g." inside a word and "3.14" are none.
			j := i + utf8.RuneLen(r)
			for j < len(s) && strings.IndexByte(`"')]`, s[j]) >= 0 {
				j++
			}
			next, _ := utf8.DecodeRuneInString(s[j:])
			if j < len(s) && (unicode.IsSpace(next) || r >= 0x3000) {
				ends = append(ends, j)
			}
		}
	}
	return append(ends, len(s))
}

func endsUnit(r rune, level int) bool {
	if level == levelSentence {
		return strings.ContainsRune(".!?…。！？", r)
	}
	return strings.ContainsRune(",;:—–、，；：", r)
}

// cutRunes cuts s into parts of at most limit bytes at character
// boundaries.
func cutRunes(s string, limit int) []string {
	var out []string
	for len(s) > limit {
		n := limit
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		if n == 0 { // a limit smaller than one character
			_, n = utf8.DecodeRuneInString(s)
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

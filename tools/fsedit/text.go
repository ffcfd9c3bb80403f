package fsedit

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Line endings as reported in metadata.
const (
	endingLF    = "lf"
	endingCRLF  = "crlf"
	endingMixed = "mixed"
	endingNone  = "none" // a file of at most one line without a break
)

// textStats describes a file's text as a whole, gathered in one pass.
type textStats struct {
	size         int64
	lines        int
	ending       string // endingLF, endingCRLF, endingMixed or endingNone
	finalNewline bool
	firstCRLF    bool  // the first line break is \r\n
	binary       bool  // a NUL byte anywhere: not text (a sniff of the start would miss one at byte 100,000)
	badLines     []int // first few lines holding invalid UTF-8
	badCount     int   // how many lines hold invalid UTF-8
}

// lineCounter accumulates textStats from a file's bytes, chunk by chunk,
// where each chunk is at most one line (bufio.Reader.ReadSlice pieces).
type lineCounter struct {
	st      textStats
	lf      int // lines ending in a bare \n
	crlf    int // lines ending in \r\n
	utf8    utf8Stream
	lineBad bool // the current line holds invalid UTF-8
	last    byte // the last byte seen
}

// add takes the next piece of the current line; a piece ending in \n ends
// the line.
func (c *lineCounter) add(piece []byte) {
	if len(piece) == 0 {
		return
	}
	if !c.st.binary && bytes.IndexByte(piece, 0) >= 0 {
		c.st.binary = true
	}
	c.st.size += int64(len(piece))
	if !c.utf8.valid(piece) {
		c.lineBad = true
	}
	if piece[len(piece)-1] == '\n' {
		prev := c.last
		if len(piece) > 1 {
			prev = piece[len(piece)-2]
		}
		if c.lf+c.crlf == 0 {
			c.st.firstCRLF = prev == '\r'
		}
		if prev == '\r' {
			c.crlf++
		} else {
			c.lf++
		}
		c.endLine()
	}
	c.last = piece[len(piece)-1]
}

func (c *lineCounter) endLine() {
	c.st.lines++
	if c.lineBad || c.utf8.pending() {
		c.st.badCount++
		if len(c.st.badLines) < 5 {
			c.st.badLines = append(c.st.badLines, c.st.lines)
		}
	}
	c.lineBad = false
	c.utf8.reset()
}

// finish completes the stats at end of file.
func (c *lineCounter) finish() textStats {
	if c.st.size > 0 && c.last != '\n' {
		c.endLine() // a last line without a break
	}
	c.st.finalNewline = c.st.size > 0 && c.last == '\n'
	switch {
	case c.lf > 0 && c.crlf > 0:
		c.st.ending = endingMixed
	case c.crlf > 0:
		c.st.ending = endingCRLF
	case c.lf > 0:
		c.st.ending = endingLF
	default:
		c.st.ending = endingNone
	}
	return c.st
}

// utf8Stream validates UTF-8 across pieces that may split a rune.
type utf8Stream struct {
	carry [utf8.UTFMax]byte
	n     int
}

func (u *utf8Stream) reset()        { u.n = 0 }
func (u *utf8Stream) pending() bool { return u.n > 0 }

// valid reports whether piece (after any carried bytes) is valid so far.
func (u *utf8Stream) valid(piece []byte) bool {
	ok := true
	if u.n > 0 {
		// Complete the carried rune one byte at a time: a valid rune then
		// uses exactly the carried bytes.
		for u.n < len(u.carry) && len(piece) > 0 && !utf8.FullRune(u.carry[:u.n]) {
			u.carry[u.n] = piece[0]
			u.n++
			piece = piece[1:]
		}
		if !utf8.FullRune(u.carry[:u.n]) {
			return true
		}
		if r, size := utf8.DecodeRune(u.carry[:u.n]); r == utf8.RuneError && size <= 1 {
			ok = false
		}
		u.n = 0
	}
	// Keep an incomplete rune at the end for the next piece.
	tail := len(piece)
	for i := len(piece) - 1; i >= 0 && i >= len(piece)-utf8.UTFMax; i-- {
		if utf8.RuneStart(piece[i]) {
			if !utf8.FullRune(piece[i:]) {
				tail = i
			}
			break
		}
	}
	if !utf8.Valid(piece[:tail]) {
		ok = false
	}
	u.n = copy(u.carry[:], piece[tail:])
	return ok
}

// breakFor returns the break new lines get in a file: CRLF for CRLF files
// and for mixed files whose first break is CRLF (firstCRLF), LF otherwise.
func breakFor(ending string, firstCRLF bool) string {
	if ending == endingCRLF || (ending == endingMixed && firstCRLF) {
		return "\r\n"
	}
	return "\n"
}

// splitContent splits model content into lines without their breaks. A
// final break ends the last line rather than starting an empty one, so
// "a\nb\n" and "a\nb" are both two lines; "" is no lines at all.
func splitContent(s string) []string {
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// withBreaks converts every line break of s to br ("\n" or "\r\n").
func withBreaks(s, br string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if br == "\n" {
		return s
	}
	return strings.ReplaceAll(s, "\n", br)
}

// countLines counts lines the way the tools report them: a last line
// without a break still counts.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

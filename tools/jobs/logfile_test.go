package jobs

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

func TestLogKeepsItsTailWithinTheCapAndCursorsSurvive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "jobs", "1.log")
	var trimmed []int64
	l, err := createLog(path, func(d int64) { trimmed = append(trimmed, d) })
	if err != nil {
		t.Fatal(err)
	}
	l.cap = 300
	var all bytes.Buffer
	for i := range 100 {
		line := fmt.Sprintf("line %03d\n", i) // 9 bytes
		l.Write([]byte(line))
		all.WriteString(line)
	}
	l.close()
	if l.size > l.cap {
		t.Errorf("file holds %d bytes, over its cap of %d", l.size, l.cap)
	}
	if len(trimmed) == 0 || trimmed[len(trimmed)-1] != l.dropped {
		t.Errorf("trims reported %v, want the last to be %d", trimmed, l.dropped)
	}
	total := int64(all.Len())
	if l.dropped+l.size != total {
		t.Fatalf("dropped %d + kept %d != written %d", l.dropped, l.size, total)
	}
	// The tail is the output's tail, from a line start.
	c, err := readLog(path, l.dropped, -1, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(all.Bytes(), c.Text) || c.Text[0] != 'l' || c.Next != total || c.Total != total {
		t.Errorf("tail = %q (from %d, next %d), want the output's end from a line start", c.Text, c.From, c.Next)
	}
	// A cursor into the kept part reads on from there.
	from := total - 18
	c, _ = readLog(path, l.dropped, from, 1<<20)
	if string(c.Text) != "line 098\nline 099\n" || c.Skipped != 0 {
		t.Errorf("read from %d = %q (skipped %d)", from, c.Text, c.Skipped)
	}
	// A cursor into the cut part says what is gone and reads the rest.
	c, _ = readLog(path, l.dropped, 0, 1<<20)
	if c.Skipped != l.dropped || c.From != l.dropped || !bytes.Equal(c.Text, all.Bytes()[l.dropped:]) {
		t.Errorf("read from 0: skipped %d from %d, want %d skipped and the kept rest", c.Skipped, c.From, l.dropped)
	}
	// Bounded reads chain through next.
	var joined []byte
	for next := l.dropped; next < total; {
		c, _ = readLog(path, l.dropped, next, 100)
		if len(c.Text) == 0 || len(c.Text) > 100 {
			t.Fatalf("read from %d gave %d bytes", next, len(c.Text))
		}
		joined = append(joined, c.Text...)
		next = c.Next
	}
	if !bytes.Equal(joined, all.Bytes()[l.dropped:]) {
		t.Errorf("chained reads differ from the kept output")
	}
}

func TestLogReadsEndOnWholeCharacters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "jobs", "1.log")
	l, err := createLog(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := "héllo wörld ✓✓✓\n"
	l.Write([]byte(text))
	l.close()
	var joined []byte
	for next := int64(0); next < int64(len(text)); {
		c, _ := readLog(path, 0, next, 4)
		if !utf8.Valid(c.Text) {
			t.Fatalf("read from %d = %q, cut inside a character", next, c.Text)
		}
		joined = append(joined, c.Text...)
		next = c.Next
	}
	if string(joined) != text {
		t.Errorf("joined = %q, want %q", joined, text)
	}
	if c, _ := readLog(path, 0, -1, 5); !utf8.Valid(c.Text) || c.Next != int64(len(text)) {
		t.Errorf("tail = %q next %d, want whole characters to the end", c.Text, c.Next)
	}
}

func TestLogOfAJobThatNeverWroteIsEmpty(t *testing.T) {
	c, err := readLog(filepath.Join(t.TempDir(), "none.log"), 0, -1, 100)
	if err != nil || len(c.Text) != 0 || c.Total != 0 {
		t.Errorf("readLog(missing) = %+v, %v; want nothing", c, err)
	}
}

package chat

import (
	"strings"
	"testing"
	"time"
)

// TestPrintRoomKeepsAFrameStillShown: a print that lands right after the
// frame shrank (Enter closed the completion list) must fit above the
// taller frame the renderer may still show, not only above the new one.
func TestPrintRoomKeepsAFrameStillShown(t *testing.T) {
	var f recentFrames
	t0 := time.Now()
	f.add(5, t0)                          // editor, completion list, status
	f.add(3, t0.Add(10*time.Millisecond)) // the list closed
	if got := f.tallest(t0.Add(20 * time.Millisecond)); got != 5 {
		t.Errorf("20 ms after a 5-row frame: tallest %d, want 5", got)
	}
	if got := f.tallest(t0.Add(time.Second)); got != 3 {
		t.Errorf("a second later: tallest %d, want the latest frame's 3", got)
	}
	f.add(4, t0.Add(2*time.Second))
	if len(f.rows) != 1 || f.tallest(t0.Add(2*time.Second)) != 4 {
		t.Errorf("old frames were kept: %v", f.rows)
	}
}

// TestChunksFitBubbleTeasCount: Bubble Tea scrolls one row more than the
// terminal wraps for a line of exactly twice the width; the parts of a
// tall print are cut by its count, so none overflows the room.
func TestChunksFitBubbleTeasCount(t *testing.T) {
	const width = 10
	for _, c := range []struct {
		line string
		want int
	}{{"", 1}, {strings.Repeat("x", 10), 1}, {strings.Repeat("x", 11), 2}, {strings.Repeat("x", 20), 3}} {
		if got := printRows(c.line, width); got != c.want {
			t.Errorf("printRows(%d columns) = %d, want %d", len(c.line), got, c.want)
		}
	}
	s := strings.Join([]string{strings.Repeat("a", 20), "b", strings.Repeat("c", 20), "d"}, "\n")
	for _, part := range chunkRows(s, width, 4) {
		if n := rowCount([]string{part}, width); n > 4 {
			t.Errorf("a part takes %d rows, room 4: %q", n, part)
		}
	}
}

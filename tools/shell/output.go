package shell

import (
	"bytes"
	"fmt"
	"strings"
)

// DefaultBudget is the number of output bytes a result keeps when
// Options.Budget gives none.
const DefaultBudget = 24 << 10

// capture keeps the head and the tail of a stream of any length in fixed
// memory, and counts what falls between them. A test run's first lines
// (compile errors) and last lines (the failures' summary) are what the
// model needs; the middle of a 100 MB log is not.
type capture struct {
	headMax, tailMax int
	head             []byte
	ring             []byte // the last tailMax bytes after the head
	start            int    // index of the oldest byte in ring, once full
	total            int64  // bytes written
	lines            int64  // line breaks written
}

func newCapture(budget int) *capture {
	if budget < 64 {
		budget = 64
	}
	head := budget * 2 / 5 // compile errors come first, summaries last
	return &capture{headMax: head, tailMax: budget - head}
}

// Write never fails and never grows beyond the budget.
func (c *capture) Write(p []byte) (int, error) {
	n := len(p)
	c.total += int64(n)
	c.lines += int64(bytes.Count(p, []byte{'\n'}))
	if room := c.headMax - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) >= c.tailMax {
		c.ring = append(c.ring[:0], p[len(p)-c.tailMax:]...)
		c.start = 0
		return n, nil
	}
	if len(c.ring) < c.tailMax {
		room := c.tailMax - len(c.ring)
		k := min(room, len(p))
		c.ring = append(c.ring, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 { // the ring is full: overwrite its oldest bytes
		k := copy(c.ring[c.start:], p)
		p = p[k:]
		c.start = (c.start + k) % c.tailMax
	}
	return n, nil
}

func (c *capture) tail() []byte {
	if len(c.ring) < c.tailMax || c.start == 0 {
		return c.ring
	}
	t := make([]byte, 0, len(c.ring))
	t = append(t, c.ring[c.start:]...)
	return append(t, c.ring[:c.start]...)
}

// end is the output's last part: all of it when nothing was left out,
// else the tail.
func (c *capture) end() []byte {
	if c.omitted() == 0 {
		return append(append([]byte(nil), c.head...), c.tail()...)
	}
	return c.tail()
}

// omitted is the number of bytes between the head and the tail.
func (c *capture) omitted() int64 {
	return c.total - int64(len(c.head)) - int64(len(c.ring))
}

// String is the output as the model sees it: all of it when it fits,
// else the head and the tail cut at line breaks, with a line saying how
// much of the middle was left out. It is valid UTF-8.
func (c *capture) String() string {
	head, tail := c.head, c.tail()
	if c.omitted() == 0 {
		return strings.ToValidUTF8(string(head)+string(tail), "\uFFFD")
	}
	// Cut back to whole lines, when a line break is near enough.
	if i := bytes.LastIndexByte(head, '\n'); i >= len(head)/2 {
		head = head[:i+1]
	}
	if i := bytes.IndexByte(tail, '\n'); i >= 0 && i < len(tail)/2 {
		tail = tail[i+1:]
	}
	skipped := c.total - int64(len(head)) - int64(len(tail))
	lines := c.lines - int64(bytes.Count(head, []byte{'\n'})) - int64(bytes.Count(tail, []byte{'\n'}))
	var b strings.Builder
	b.Write(head)
	if len(head) > 0 && head[len(head)-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[... %d bytes (%d lines) of output left out here ...]\n", skipped, lines)
	b.Write(tail)
	return strings.ToValidUTF8(b.String(), "\uFFFD")
}

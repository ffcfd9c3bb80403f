package xmlcall

import (
	"strings"
	"unsafe"
)

// Blocks that small pieces of a value are copied into while it streams
// in start small (most values are a path or a number) and double up to
// blockSize.
const (
	firstBlock = 256
	blockSize  = 64 << 10
)

// valueBuf accumulates a parameter value without ever re-copying it while
// it grows. Small pieces (a few bytes per streamed chunk) are copied into
// fixed blocks; large pieces are kept by reference (strings are
// immutable). String joins them once, into a buffer of the exact size; a
// value that arrived as one piece comes back without any copy.
//
// A growing contiguous buffer would copy a 10 MB value fed in small chunks
// about twice over and fault in twice its size in fresh pages, which made
// small chunks several times slower than one big one.
type valueBuf struct {
	pieces []string
	block  []byte // the block being filled; never written after it is a piece
	n      int
}

// WriteString appends s.
func (v *valueBuf) WriteString(s string) {
	if len(s) >= blockSize/4 {
		v.flush()
		v.pieces = append(v.pieces, s)
		v.n += len(s)
		return
	}
	if len(v.block)+len(s) > cap(v.block) {
		v.newBlock(len(s))
	}
	v.block = append(v.block, s...)
	v.n += len(s)
}

// WriteByte appends c.
func (v *valueBuf) WriteByte(c byte) error {
	if len(v.block) == cap(v.block) {
		v.newBlock(1)
	}
	v.block = append(v.block, c)
	v.n++
	return nil
}

// newBlock starts a block with room for at least n bytes, twice the size
// of the last one.
func (v *valueBuf) newBlock(n int) {
	size := min(max(2*cap(v.block), firstBlock, n), blockSize)
	v.flush()
	v.block = make([]byte, 0, max(size, n))
}

// flush turns the current block into a piece. The block is not written
// again (the next write starts a new one), so viewing it as a string is
// safe, as in strings.Builder.
func (v *valueBuf) flush() {
	if len(v.block) > 0 {
		v.pieces = append(v.pieces, unsafe.String(unsafe.SliceData(v.block), len(v.block)))
	}
	v.block = nil
}

// Len returns the number of bytes written.
func (v *valueBuf) Len() int { return v.n }

// String returns everything written.
func (v *valueBuf) String() string {
	v.flush()
	switch len(v.pieces) {
	case 0:
		return ""
	case 1:
		return v.pieces[0]
	}
	var b strings.Builder
	b.Grow(v.n)
	for _, p := range v.pieces {
		b.WriteString(p)
	}
	s := b.String()
	v.pieces = append(v.pieces[:0], s)
	return s
}

// Reset empties the buffer, keeping the piece list's storage.
func (v *valueBuf) Reset() {
	clear(v.pieces)
	v.pieces = v.pieces[:0]
	v.block = nil
	v.n = 0
}

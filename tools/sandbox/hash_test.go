package sandbox

import (
	"bytes"
	"crypto/sha256"
	"testing"
)

// TestAsyncHashBuffers checks that the async hash sums what it was given
// in writes of any size, that a small content costs one small buffer, and
// that larger writes get full-size buffers, never more than asyncBufs.
func TestAsyncHashBuffers(t *testing.T) {
	small := []byte("# greeter\nA small Go service.\n")
	a := NewAsyncHash()
	a.Write(small)
	if got, want := a.Sum(), sha256.Sum256(small); got != want {
		t.Fatalf("sum of a small write = %x, want %x", got, want)
	}
	if a.made != 1 {
		t.Errorf("a small write made %d buffers, want 1", a.made)
	}

	big := bytes.Repeat([]byte("0123456789abcdef"), 3*asyncBufSize/16+7)
	a = NewAsyncHash()
	a.Write(small)
	for rest := big; len(rest) > 0; {
		n := min(len(rest), 100<<10)
		a.Write(rest[:n])
		rest = rest[n:]
	}
	a.Write(big) // one write larger than a buffer
	want := sha256.Sum256(append(append(append([]byte{}, small...), big...), big...))
	if got := a.Sum(); got != want {
		t.Fatalf("sum of mixed writes = %x, want %x", got, want)
	}
	if a.made > asyncBufs {
		t.Errorf("made %d buffers, want at most %d", a.made, asyncBufs)
	}
}

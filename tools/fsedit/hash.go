package fsedit

import (
	"crypto/sha256"
	"hash/crc32"
	"io"
)

// castagnoli is the CRC-32C table: hardware-accelerated on common CPUs,
// it fingerprints a file's content at several GB/s, so the staleness check
// of a partial write costs little even on a huge file.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// asyncHash computes a SHA-256 on its own goroutine, so that hashing a
// large file overlaps with reading and writing it instead of adding to
// it. Memory stays bounded: a few buffers circulate between the writer
// and the hashing goroutine.
type asyncHash struct {
	free   chan []byte
	work   chan []byte
	done   chan [sha256.Size]byte
	closed bool
	sum    [sha256.Size]byte
}

const (
	asyncBufs    = 4
	asyncBufSize = 256 << 10
)

func newAsyncHash() *asyncHash {
	a := &asyncHash{
		free: make(chan []byte, asyncBufs),
		work: make(chan []byte, asyncBufs),
		done: make(chan [sha256.Size]byte, 1),
	}
	for range asyncBufs {
		a.free <- make([]byte, 0, asyncBufSize)
	}
	go func() {
		h := sha256.New()
		for b := range a.work {
			h.Write(b)
			a.free <- b[:0]
		}
		var sum [sha256.Size]byte
		h.Sum(sum[:0])
		a.done <- sum
	}()
	return a
}

// Write hands a copy of p to the hashing goroutine.
func (a *asyncHash) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		b := <-a.free
		k := min(len(p), cap(b))
		b = append(b, p[:k]...)
		a.work <- b
		p = p[k:]
	}
	return n, nil
}

// Sum waits for the hash of everything written. Later calls return the
// same sum; Write must not be called after Sum.
func (a *asyncHash) Sum() [sha256.Size]byte {
	if !a.closed {
		a.closed = true
		close(a.work)
		a.sum = <-a.done
	}
	return a.sum
}

// fingerprint reads through r, computing the CRC-32C of what it reads
// and, when sha is set, its SHA-256 on another goroutine.
type fingerprint struct {
	r   io.Reader
	crc uint32
	sha *asyncHash
}

func (f *fingerprint) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	f.crc = crc32.Update(f.crc, castagnoli, p[:n])
	if f.sha != nil {
		f.sha.Write(p[:n])
	}
	return n, err
}

// fingerprintWriter writes to w, computing the CRC-32C and SHA-256 of
// what it writes.
type fingerprintWriter struct {
	w   io.Writer
	crc *uint32
	sha *asyncHash
}

func (f fingerprintWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	*f.crc = crc32.Update(*f.crc, castagnoli, p[:n])
	f.sha.Write(p[:n])
	return n, err
}

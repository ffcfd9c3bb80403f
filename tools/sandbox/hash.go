package sandbox

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"hash/crc32"
	"io"
	"sync"
)

// Castagnoli is the CRC-32C table: hardware-accelerated on common CPUs,
// it fingerprints a file's content at several GB/s, so the staleness check
// of a partial write costs little even on a huge file.
var Castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// CheckpointEvery is how often a hash records its state. SHA-256 is
// computed front to back, so the state after a prefix is the same for any
// file that starts with that prefix: a partial write in the middle of a
// large file resumes from the last checkpoint before its range instead of
// hashing the unchanged prefix again.
// (A variable so that tests can make checkpoints dense.)
var CheckpointEvery int64 = 16 << 20

// Checkpoint is the SHA-256 state after the first off bytes of a content.
type Checkpoint struct {
	Off   int64
	State []byte
}

// asyncHash computes a SHA-256 on its own goroutine, so that hashing a
// large file overlaps with reading and writing it instead of adding to
// it. Memory stays bounded: a few buffers circulate between the writer
// and the hashing goroutine.
type asyncHash struct {
	free   chan []byte
	made   int // buffers made so far, at most asyncBufs
	work   chan []byte
	done   chan [sha256.Size]byte
	closed bool
	sum    [sha256.Size]byte
	CPs    []Checkpoint // valid after Sum
}

const (
	asyncBufs    = 4
	asyncBufSize = 256 << 10
)

func NewAsyncHash() *asyncHash { return resumeAsyncHash(Checkpoint{}) }

// resumeAsyncHash continues a hash from cp (from the start when cp is
// zero): what is written next is the content from byte cp.off on.
func resumeAsyncHash(cp Checkpoint) *asyncHash {
	a := &asyncHash{
		free: make(chan []byte, asyncBufs),
		work: make(chan []byte, asyncBufs),
		done: make(chan [sha256.Size]byte, 1),
	}
	h := sha256.New()
	if cp.State != nil {
		if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(cp.State); err != nil {
			h.Reset()
			cp = Checkpoint{}
		}
	}
	go func() {
		every := CheckpointEvery
		n, next := cp.Off, cp.Off+every
		for b := range a.work {
			h.Write(b)
			n += int64(len(b))
			if n >= next {
				if st, err := h.(encoding.BinaryMarshaler).MarshalBinary(); err == nil {
					a.CPs = append(a.CPs, Checkpoint{Off: n, State: st})
				}
				next = n + every
			}
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
		b := a.buffer(len(p))
		k := min(len(p), cap(b))
		b = append(b, p[:k]...)
		a.work <- b
		p = p[k:]
	}
	return n, nil
}

// buffer returns an empty buffer for the next n bytes: a free one, or a
// new one while fewer than asyncBufs exist. Buffers are made on demand and
// no larger than the writes need, so reading a small file costs one small
// buffer instead of asyncBufs large ones; a buffer too small for a larger
// write is replaced by a larger one.
func (a *asyncHash) buffer(n int) []byte {
	want := min(max(n, 4<<10), asyncBufSize)
	var b []byte
	select {
	case b = <-a.free:
	default:
		if a.made < asyncBufs {
			a.made++
			return make([]byte, 0, want)
		}
		b = <-a.free
	}
	if cap(b) < want {
		b = make([]byte, 0, want)
	}
	return b
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

// LastBefore returns the last checkpoint at or before off (zero if none).
func LastBefore(cps []Checkpoint, off int64) Checkpoint {
	var best Checkpoint
	for _, c := range cps {
		if c.Off <= off && c.Off > best.Off {
			best = c
		}
	}
	return best
}

// Fingerprint reads through r, computing the CRC-32C of what it reads
// and, when sha is set, its SHA-256 on another goroutine.
type Fingerprint struct {
	r   io.Reader
	CRC uint32
	SHA *asyncHash
	NUL bool // a NUL byte went by: the content is binary
}

func (f *Fingerprint) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	f.CRC = crc32.Update(f.CRC, Castagnoli(), p[:n])
	if !f.NUL && bytes.IndexByte(p[:n], 0) >= 0 {
		f.NUL = true
	}
	if f.SHA != nil {
		f.SHA.Write(p[:n])
	}
	return n, err
}

// fingerprintWriter writes to w, computing the CRC-32C and SHA-256 of
// what it writes. While paused, bytes go to w and the CRC only; the
// owner then brings the hash up to date from elsewhere (see
// replacement.resumeHash).
// NewFingerprint reads r for what the content is (its CRC, and its
// SHA-256 when SHA is set before the first read).
func NewFingerprint(r io.Reader) *Fingerprint { return &Fingerprint{r: r} }

type FingerprintWriter struct {
	w io.Writer
	r *Replacement
}

func (f FingerprintWriter) Write(p []byte) (int, error) {
	if ctx := f.r.ctx; ctx != nil && ctx.Err() != nil {
		// Cancelled (Ctrl-C) or timed out: stop now, so the caller
		// removes the temp file at once, not after copying the rest.
		return 0, ctx.Err()
	}
	n, err := f.w.Write(p)
	f.r.CRC = crc32.Update(f.r.CRC, Castagnoli(), p[:n])
	if f.r.paused {
		f.r.pausedBytes += int64(n)
	} else {
		f.r.sum.Write(p[:n])
	}
	return n, err
}

package jobs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"unicode/utf8"
)

// ErrBadLog is wrapped by the error of a log that is not a regular file
// reached without a symlink: it is never read.
var ErrBadLog = errors.New("job log refused")

// LogCap is the most a job's log file holds: past it, the oldest half is
// cut away, so a server that logs for hours keeps its recent output in
// bounded space.
const LogCap = 1 << 20

// logFile is a job's output file, written by one goroutine (the
// command's output pump) and read by job_output. Offsets count every
// byte the job ever wrote: the cut bytes too (dropped), so a reader's
// cursor survives a cut.
type logFile struct {
	mu      sync.Mutex
	path    string
	f       *os.File
	size    int64 // bytes in the file
	dropped int64 // bytes cut from its start
	cap     int64
	onTrim  func(dropped int64)
	failed  bool // a write failed: the rest is not kept
}

// createLog makes the log file path (0600) in its folder (0700), new,
// never through a symlink.
func createLog(path string, onTrim func(int64)) (*logFile, error) {
	dir := filepath.Dir(path)
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("make %s: %w", dir, err)
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	// Whatever has the new job's name (a link a cloned project planted,
	// an old job's log when the database was deleted) is replaced.
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("create job log: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create job log: %w", err)
	}
	return &logFile{path: path, f: f, cap: LogCap, onTrim: onTrim}, nil
}

// Write appends p. It never fails: a job's output that cannot be kept
// must not stop the job; the summary and the preview still say how it
// ended.
func (l *logFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.failed {
		return len(p), nil
	}
	n, err := l.f.Write(p)
	l.size += int64(n)
	if err != nil {
		l.failed = true
		return len(p), nil
	}
	if l.size > l.cap {
		l.trim()
	}
	return len(p), nil
}

// trim keeps the last half of the cap, moved into a new file that
// replaces the old one at once (a reader sees one or the other).
func (l *logFile) trim() {
	keep := l.cap / 2
	tail := make([]byte, keep)
	r, err := os.Open(l.path)
	if err == nil {
		_, err = r.ReadAt(tail, l.size-keep)
		r.Close()
	}
	// Start at a line, when one starts in the first quarter of it.
	if i := bytes.IndexByte(tail[:keep/4], '\n'); err == nil && i >= 0 {
		tail = tail[i+1:]
	}
	tmp := l.path + ".tmp"
	var nf *os.File
	if err == nil {
		os.Remove(tmp) // a leftover, or a link: never written through
		nf, err = os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND|syscall.O_NOFOLLOW, 0o600)
	}
	if err == nil {
		if _, err = nf.Write(tail); err == nil {
			err = os.Rename(tmp, l.path)
		}
		if err != nil {
			nf.Close()
			os.Remove(tmp)
		}
	}
	if err != nil {
		l.failed = true
		return
	}
	l.f.Close()
	l.f = nf
	l.dropped += l.size - int64(len(tail))
	l.size = int64(len(tail))
	if l.onTrim != nil {
		l.onTrim(l.dropped)
	}
}

// close closes the file.
func (l *logFile) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.f.Close()
}

// Chunk is a piece of a job's output read at an offset (offsets count
// every byte the job wrote).
type Chunk struct {
	Text []byte
	From int64 // offset of Text's first byte
	Next int64 // offset after it: the cursor for the next read
	// Total is the bytes the job wrote so far; Skipped those between
	// the asked offset and From that the log no longer holds.
	Total   int64
	Skipped int64
}

// readLog reads at most max bytes of the log at path, whose first
// dropped bytes were cut, from offset from, or the last max bytes when
// from is negative. Pieces end and start on whole characters.
//
// The log must be a regular file reached without a symlink: one planted
// in a cloned project's .agent/jobs (a link to ~/.ssh/id_rsa, a FIFO)
// is refused, never read to the model.
func readLog(path string, dropped, from int64, max int) (Chunk, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return Chunk{From: dropped, Next: dropped, Total: dropped}, nil
	}
	if errors.Is(err, syscall.ELOOP) {
		return Chunk{}, fmt.Errorf("%w: %s is a symlink", ErrBadLog, path)
	}
	if err != nil {
		return Chunk{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Chunk{}, err
	}
	if !fi.Mode().IsRegular() {
		return Chunk{}, fmt.Errorf("%w: %s is not a regular file", ErrBadLog, path)
	}
	total := dropped + fi.Size()
	c := Chunk{Total: total}
	tail := from < 0
	if tail {
		from = total - int64(max)
	}
	if from < dropped {
		if !tail {
			c.Skipped = dropped - from
		}
		from = dropped
	}
	from = min(from, total)
	buf := make([]byte, min(int64(max), total-from))
	n, err := f.ReadAt(buf, from-dropped)
	if err != nil && err != io.EOF {
		return Chunk{}, err
	}
	buf = buf[:n]
	if tail { // begin on a whole character
		for len(buf) > 0 && !utf8.RuneStart(buf[0]) {
			buf = buf[1:]
			from++
		}
	}
	if from+int64(len(buf)) < total { // end on one, the rest comes next
		buf = wholeRunes(buf)
	}
	c.Text, c.From, c.Next = buf, from, from+int64(len(buf))
	return c, nil
}

// wholeRunes drops a character cut at the end of b.
func wholeRunes(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

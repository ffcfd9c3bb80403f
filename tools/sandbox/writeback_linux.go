package sandbox

import (
	"os"

	"golang.org/x/sys/unix"
)

// writebackChunk is how much new content is written before the kernel is
// asked to start writing it to disk.
const writebackChunk = 8 << 20

// writeback writes to f and starts the disk writes of each finished
// chunk early (sync_file_range, without waiting), so the fsync at the end
// of a large write has little left to do.
type writeback struct {
	f       *os.File
	written int64
	started int64
}

func (w *writeback) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.written += int64(n)
	if w.written-w.started >= writebackChunk {
		// Best effort: a file system without it just syncs at the end.
		unix.SyncFileRange(int(w.f.Fd()), w.started, w.written-w.started, unix.SYNC_FILE_RANGE_WRITE)
		w.started = w.written
	}
	return n, err
}

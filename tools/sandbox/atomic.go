package sandbox

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// TmpMarker is part of every temp file name, so leftovers of a killed
// process can be recognised (and removed by the next write).
const TmpMarker = ".agent-tmp-"

// writeBufSize is the temp file's write buffer.
const writeBufSize = 256 << 10

// TestHookWrap, when set by a test, wraps the temp file's writer, to
// inject failures such as a full disk.
var TestHookWrap func(io.Writer) io.Writer

// Replacement is the new content of one file being written: a temp file
// in the same folder as the target, so the final rename is atomic.
type Replacement struct {
	dir     DirHandle
	name    string // the target's base name
	tmpName string
	tmp     *os.File
	Buf     *bufio.Writer
	sum     *asyncHash // of the new content, computed alongside the write
	Final   [sha256.Size]byte
	CRC     uint32 // CRC-32C of the new content
	n       int64
	// paused: the hash waits for resumeHash; pausedBytes went by meanwhile.
	paused      bool
	pausedBytes int64
	done        bool
	// enc, when set, encodes the content as UTF-16 (see encodeAs).
	enc *UTF16Writer
	// ctx, when set, stops the writing once it is done (see watch).
	ctx context.Context
}

// Watch makes writes fail once ctx is done, so a cancelled write of a
// large file stops within one buffer instead of copying all of it.
func (r *Replacement) Watch(ctx context.Context) { r.ctx = ctx }

// NewDryReplacement is a replacement for name in dir whose new content
// goes to w instead of a temp file (a dry run's: a preview), hashed as a
// write's is. It is never committed.
func NewDryReplacement(dir DirHandle, name string, w io.Writer) *Replacement {
	r := &Replacement{dir: dir, name: name, sum: NewAsyncHash()}
	r.Buf = NewBuf(FingerprintWriter{w: w, r: r})
	return r
}

// NewReplacement creates the temp file for name in dir with mode perm.
func NewReplacement(dir DirHandle, name string, perm fs.FileMode) (*Replacement, error) {
	removeStaleTemps(dir, name)
	var rnd [6]byte
	rand.Read(rnd[:])
	tmpName := "." + name + TmpMarker + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(rnd[:])
	f, err := dir.OpenFile(tmpName, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create temp file for %s: %w", name, err)
	}
	// Set the final mode now (OpenFile's is masked by the umask).
	if err := f.Chmod(perm); err != nil {
		f.Close()
		dir.Remove(tmpName)
		return nil, fmt.Errorf("set mode of temp file for %s: %w", name, err)
	}
	r := &Replacement{dir: dir, name: name, tmpName: tmpName, tmp: f, sum: NewAsyncHash()}
	var w io.Writer = &writeback{f: f}
	if TestHookWrap != nil {
		w = TestHookWrap(w)
	}
	r.Buf = NewBuf(FingerprintWriter{w: w, r: r})
	return r, nil
}

func NewBuf(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, writeBufSize) }

// Write adds to the new content.
func (r *Replacement) Write(p []byte) (int, error) {
	r.n += int64(len(p))
	if r.enc != nil {
		return r.enc.Write(p)
	}
	return r.Buf.Write(p)
}

// WriteString adds to the new content.
func (r *Replacement) WriteString(s string) (int, error) {
	if r.enc != nil {
		return r.Write([]byte(s))
	}
	r.n += int64(len(s))
	return r.Buf.WriteString(s)
}

// EncodeAs makes the new content go to the file in the UTF-16 encoding
// enc ("" keeps UTF-8): what is written to r is UTF-8 text.
func (r *Replacement) EncodeAs(enc string) {
	if enc != "" {
		r.enc = &UTF16Writer{w: r.Buf, enc: enc}
	}
}

// PauseHash stops feeding the hash until resumeHash. Call it before the
// first write.
func (r *Replacement) PauseHash() { r.paused = true }

// ResumeHash brings the hash up to date after a pause during which the
// new content was an unchanged copy of old: it restarts from cp, the
// state after cp.off bytes of old, hashes old from there up to what was
// written, and feeds the hash again from then on.
func (r *Replacement) ResumeHash(old io.ReaderAt, cp Checkpoint) error {
	if err := r.Buf.Flush(); err != nil {
		return err
	}
	r.sum.Sum() // the paused hash saw nothing: drop it
	r.sum = resumeAsyncHash(cp)
	r.paused = false
	if _, err := io.Copy(r.sum, io.NewSectionReader(old, cp.Off, r.pausedBytes-cp.Off)); err != nil {
		return fmt.Errorf("hash %s: %w", r.name, err)
	}
	return nil
}

// Checkpoints returns the hash states of the new content; valid after
// flush. prefix are checkpoints of the old content still valid for the
// new (those at or before the resume point).
func (r *Replacement) Checkpoints(prefix []Checkpoint, resumedAt int64) []Checkpoint {
	var out []Checkpoint
	for _, c := range prefix {
		if c.Off <= resumedAt {
			out = append(out, c)
		}
	}
	return append(out, r.sum.CPs...)
}

// Hash returns the SHA-256 of the new content; valid after flush.
func (r *Replacement) Hash() string { return hex.EncodeToString(r.Final[:]) }

// Chown gives the temp file the owner of the file it replaces, where the
// process may (as root); otherwise the new file keeps the writer's owner.
func (r *Replacement) Chown(old fs.FileInfo) {
	if r.tmp == nil {
		return
	}
	if uid, gid, ok := Owner(old); ok && (uid != os.Getuid() || gid != os.Getgid()) {
		r.tmp.Chown(uid, gid)
	}
}

// Flush writes the buffered content and syncs it to disk, and returns the
// temp file's final state. After flush only commit or abort remain.
func (r *Replacement) Flush() (fs.FileInfo, error) {
	if r.enc != nil {
		if err := r.enc.Finish(); err != nil {
			r.Final = r.sum.Sum()
			return nil, fmt.Errorf("write %s: %w", r.name, err)
		}
	}
	err := r.Buf.Flush()
	if r.tmp == nil { // a dry run: nothing on disk
		r.Final = r.sum.Sum()
		return nil, err
	}
	if err == nil {
		// The disk catches up while the hash of the new content, on its
		// own goroutine, finishes.
		if err = r.tmp.Sync(); err != nil {
			err = fmt.Errorf("sync %s: %w", r.name, err)
		}
	} else {
		err = fmt.Errorf("write %s: %w", r.name, err)
	}
	r.Final = r.sum.Sum()
	if err != nil {
		return nil, err
	}
	fi, err := r.tmp.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", r.name, err)
	}
	if err := r.tmp.Close(); err != nil {
		return nil, fmt.Errorf("close %s: %w", r.name, err)
	}
	return fi, nil
}

// Commit puts the temp file in place of the target and syncs the folder.
// With replace false the target must not exist (create): the temp file is
// hard-linked to the name, which fails if the name was taken meanwhile.
func (r *Replacement) Commit(replace bool) error {
	r.done = true
	var err error
	if replace {
		err = r.dir.Rename(r.tmpName, r.name)
	} else {
		err = r.dir.Link(r.tmpName, r.name)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			// No hard links here (some network or FAT file systems):
			// check and rename, with a small window for a racing creator.
			if _, lerr := r.dir.Lstat(r.name); lerr == nil {
				err = fs.ErrExist
			} else {
				err = r.dir.Rename(r.tmpName, r.name)
			}
		}
		r.dir.Remove(r.tmpName)
	}
	if err != nil {
		r.dir.Remove(r.tmpName)
		if errors.Is(err, fs.ErrExist) {
			return err
		}
		return fmt.Errorf("replace %s: %w", r.name, err)
	}
	return syncDir(r.dir)
}

// Abort removes the temp file. It is safe to call after commit.
func (r *Replacement) Abort() {
	if r.done {
		return
	}
	r.done = true
	r.sum.Sum() // stop the hashing goroutine
	if r.tmp == nil {
		return
	}
	r.tmp.Close()
	r.dir.Remove(r.tmpName)
}

// syncDir makes a rename or link in dir durable.
func syncDir(dir DirHandle) error {
	d, err := dir.Open(".")
	if err != nil {
		return fmt.Errorf("open folder to sync: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("sync folder: %w", err)
	}
	return nil
}

// removeStaleTemps deletes temp files left for name by processes that no
// longer run (killed mid-write). A live process's temp file is kept.
func removeStaleTemps(dir DirHandle, name string) {
	d, err := dir.Open(".")
	if err != nil {
		return
	}
	defer d.Close()
	prefix := "." + name + TmpMarker
	for {
		ents, err := d.ReadDir(256)
		for _, e := range ents {
			rest, ok := strings.CutPrefix(e.Name(), prefix)
			if !ok || !e.Type().IsRegular() {
				continue
			}
			pidText, _, _ := strings.Cut(rest, "-")
			if pid, err := strconv.Atoi(pidText); err == nil && !processAlive(pid) {
				dir.Remove(e.Name())
			}
		}
		if err != nil {
			return
		}
	}
}

// DescribeWriteErr turns a disk-full or read-only-file-system error into
// words the user understands (the file itself is untouched), and a
// permission error into a *refusal for the model, which can choose
// another file.
func DescribeWriteErr(rel string, err error) error {
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return fmt.Errorf("write %s: the disk is full; %s is unchanged: %w", rel, rel, err)
	case errors.Is(err, fs.ErrPermission):
		return PermDenied(rel, "write")
	case errors.Is(err, syscall.EROFS):
		return fmt.Errorf("write %s: the file system is read-only; %s is unchanged: %w", rel, rel, err)
	}
	return fmt.Errorf("write %s: %w", rel, err)
}

// ErrStale reports that the file changed while it was being written.
var ErrStale = errors.New("file changed during the write")

// KeptMode is the part of a file's mode a write carries over: the
// permission bits only. Setuid, setgid and sticky are dropped, as
// chmod(2) and every editor's write do: a program the model rewrote must
// not run with its owner's or group's rights (a setgid tool.sh with new
// content is a way into that group).
func KeptMode(fi fs.FileInfo) fs.FileMode {
	return fi.Mode().Perm()
}

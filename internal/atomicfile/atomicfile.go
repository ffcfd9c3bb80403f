// Package atomicfile writes a file whole or not at all, for the files the
// agent keeps outside a project's sandbox (the user's trust list and
// backup key, a session's file state, the .agent/.gitignore, a WAV that
// agent tts writes): a reader, or the next run after a crash, sees the
// old file or the whole new one, never a part. ReadSmall reads such a
// file back whole, or refuses it, when someone put a FIFO or a huge file
// in its place.
//
// A project's own files are written through tools/fsedit's sandbox
// instead, which adds backups and the sandbox's checks. This package
// depends on the standard library only.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes the file at path: write produces its bytes into a
// temporary file beside it (mode perm), which is synced and renamed over
// path, and the folder is synced so the rename lasts. When write or any
// step fails, path is left as it was and no temporary file remains.
func WriteFile(path string, perm fs.FileMode, write func(io.Writer) error) error {
	return put(osFolder{}, path, perm, write, os.Rename)
}

// WriteNew is WriteFile for a file that is never replaced: it is put in
// place by a hard link, which fails with an error matching fs.ErrExist
// when path exists, so of two processes writing it at once one wins and
// the other can read what the winner wrote.
func WriteNew(path string, perm fs.FileMode, write func(io.Writer) error) error {
	return put(osFolder{}, path, perm, write, os.Link)
}

// WriteFileIn is WriteFile for name inside root, which the temporary file
// and the rename cannot leave, whatever links the folder holds.
func WriteFileIn(root *os.Root, name string, perm fs.FileMode, write func(io.Writer) error) error {
	return put(root, name, perm, write, root.Rename)
}

// folder is where put writes: the file system (osFolder) or an os.Root.
type folder interface {
	OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error)
	Open(name string) (*os.File, error)
	Remove(name string) error
}

type osFolder struct{}

func (osFolder) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
func (osFolder) Open(name string) (*os.File, error) { return os.Open(name) }
func (osFolder) Remove(name string) error           { return os.Remove(name) }

func put(dir folder, path string, perm fs.FileMode, write func(io.Writer) error, place func(tmp, path string) error) (err error) {
	var rnd [6]byte
	rand.Read(rnd[:])
	tmpName := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp-"+hex.EncodeToString(rnd[:]))
	tmp, err := dir.OpenFile(tmpName, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer dir.Remove(tmpName) // gone after a rename; the link's other name after a link
	err = write(tmp)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := place(tmpName, path); err != nil {
		var le *os.LinkError
		if errors.As(err, &le) {
			err = &fs.PathError{Op: le.Op, Path: path, Err: le.Err}
		}
		return err
	}
	if d, derr := dir.Open(filepath.Dir(path)); derr == nil {
		d.Sync() // the new name lasts once the folder is synced
		d.Close()
	}
	return nil
}

// ReadSmall reads the regular file at path, of at most max bytes.
// Anything else (a FIFO, a device, a larger file) is refused with an
// error saying so, rather than waited on or read in part.
func ReadSmall(path string, max int64) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if info.Size() > max {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, max)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		err = fmt.Errorf("%s is larger than %d bytes", path, max) // it grew meanwhile
	}
	return b, err
}

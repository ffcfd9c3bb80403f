//go:build unix

package fsedit

import (
	"errors"
	"io/fs"
	"syscall"
)

// owner returns the owner of the file described by fi.
func owner(fi fs.FileInfo) (uid, gid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(st.Uid), int(st.Gid), true
}

// processAlive reports whether a process with this id runs (or may run:
// one we may not signal still exists).
func processAlive(pid int) bool {
	if pid <= 0 {
		return true
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

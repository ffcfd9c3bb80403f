//go:build unix

package sandbox

import (
	"errors"
	"io/fs"
	"syscall"
)

// Owner returns the owner of the file described by fi.
func Owner(fi fs.FileInfo) (uid, gid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(st.Uid), int(st.Gid), true
}

// links returns the number of names of the file described by fi (1
// where it cannot tell).
func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// fileID identifies the file described by fi: its device and inode.
func fileID(fi fs.FileInfo) (id [2]uint64, ok bool) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return [2]uint64{uint64(st.Dev), uint64(st.Ino)}, true
	}
	return id, false
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

// WritableByUs reports whether the permission bits of fi let this process
// write the file. A write replaces the file by renaming a new one over it,
// which only needs the folder to be writable; without this check a file
// owned by someone else, that we may not write, would be replaced (and
// change owner).
func WritableByUs(fi fs.FileInfo) bool {
	uid, gid, ok := Owner(fi)
	if !ok {
		return true
	}
	euid := syscall.Geteuid()
	mode := fi.Mode().Perm()
	switch {
	case euid == 0:
		return true
	case uid == euid:
		return mode&0o200 != 0
	case inGroup(gid):
		return mode&0o020 != 0
	}
	return mode&0o002 != 0
}

func inGroup(gid int) bool {
	if gid == syscall.Getegid() {
		return true
	}
	groups, _ := syscall.Getgroups()
	for _, g := range groups {
		if g == gid {
			return true
		}
	}
	return false
}

// oNoFollow makes an open fail on a symlink.
const oNoFollow = syscall.O_NOFOLLOW

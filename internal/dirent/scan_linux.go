package dirent

import (
	"os"
	"syscall"
	"unsafe"
)

// Scan lists a folder with getdents64 directly. os.File costs four fcntl
// calls and a failed epoll registration per folder on top of
// open/getdents/close, and an allocation per entry; walking a large tree
// is mostly those system calls, so skipping them is what keeps a walk as
// fast as `find`.
func Scan(path string, buf []byte, fn func(name string, typ Type)) error {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &os.PathError{Op: "readdirent", Path: path, Err: err}
		}
		if n <= 0 {
			return nil
		}
		parse(path, buf[:n], fn)
	}
}

// parse walks the linux_dirent64 records in b: d_ino (8 bytes), d_off
// (8), d_reclen (2), d_type (1), then the NUL-terminated name.
func parse(dir string, b []byte, fn func(name string, typ Type)) {
	for len(b) >= 19 {
		reclen := int(*(*uint16)(unsafe.Pointer(&b[16])))
		if reclen < 19 || reclen > len(b) {
			return
		}
		rec := b[:reclen]
		b = b[reclen:]
		if *(*uint64)(unsafe.Pointer(&rec[0])) == 0 {
			continue // a deleted entry
		}
		name := rec[19:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if len(name) == 0 || (name[0] == '.' && (len(name) == 1 || (len(name) == 2 && name[1] == '.'))) {
			continue
		}
		s := unsafe.String(&name[0], len(name))
		var typ Type
		switch rec[18] {
		case syscall.DT_REG:
			typ = File
		case syscall.DT_DIR:
			typ = Dir
		case syscall.DT_LNK:
			typ = Link
		case syscall.DT_UNKNOWN:
			// Some file systems do not report types: ask.
			if fi, err := os.Lstat(dir + "/" + s); err == nil {
				typ = TypeOf(fi.Mode().Type())
			}
		default:
			typ = Other
		}
		fn(s, typ)
	}
}

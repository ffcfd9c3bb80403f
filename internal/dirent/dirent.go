// Package dirent lists a folder's entries, each name with its type, the
// way a tree walk needs them: on Linux with getdents64 directly, never a
// stat per entry where the file system reports types.
package dirent

import (
	"io/fs"
)

// Type is an entry's type, as a folder listing reports it.
type Type byte

// Entry types.
const (
	Other Type = iota // device, socket, pipe
	File
	Dir
	Link
)

// Func lists the folder at path, calling fn for each entry except "."
// and "..". The name passed to fn is only valid during the call: fn must
// copy it (strings.Clone) to keep it. buf is scratch space the caller
// reuses from folder to folder (32 KiB is plenty). Scan is a Func.
type Func func(path string, buf []byte, fn func(name string, typ Type)) error

// TypeOf maps a DirEntry's type bits to an entry type.
func TypeOf(m fs.FileMode) Type {
	switch {
	case m.IsRegular():
		return File
	case m.IsDir():
		return Dir
	case m&fs.ModeSymlink != 0:
		return Link
	}
	return Other
}

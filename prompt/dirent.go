package prompt

import (
	"io/fs"
	"unsafe"
)

// Entry types, as a folder listing reports them without a stat per entry.
const (
	typeOther byte = iota // device, socket, pipe
	typeFile
	typeDir
	typeLink
)

// scanFunc lists the folder at path, calling fn for each entry except "."
// and "..". The name passed to fn is only valid during the call: fn must
// copy it (strings.Clone) to keep it. buf is scratch space the caller
// reuses from folder to folder.
type scanFunc func(path string, buf []byte, fn func(name string, typ byte)) error

// typeOf maps a DirEntry's type bits to an entry type.
func typeOf(m fs.FileMode) byte {
	switch {
	case m.IsRegular():
		return typeFile
	case m.IsDir():
		return typeDir
	case m&fs.ModeSymlink != 0:
		return typeLink
	}
	return typeOther
}

// listing holds one folder's entries, read with a scanFunc. The names
// live in one reused arena, so reading a folder allocates nothing once
// the arena has grown; name(i) is valid until the next read.
type listing struct {
	buf   []byte // scratch for the scanFunc
	arena []byte
	ents  []rawEntry
	// hasGit and hasAgent say whether the folder holds ignore files.
	hasGit, hasAgent bool
}

type rawEntry struct {
	off, n int
	typ    byte
}

func (l *listing) read(scan scanFunc, path string) error {
	if l.buf == nil {
		l.buf = make([]byte, 32<<10)
	}
	l.arena, l.ents = l.arena[:0], l.ents[:0]
	l.hasGit, l.hasAgent = false, false
	return scan(path, l.buf, func(name string, typ byte) {
		l.ents = append(l.ents, rawEntry{off: len(l.arena), n: len(name), typ: typ})
		l.arena = append(l.arena, name...)
		if typ == typeFile && len(name) >= len(gitIgnoreFile) && name[0] == '.' {
			switch name {
			case gitIgnoreFile:
				l.hasGit = true
			case agentIgnoreFile:
				l.hasAgent = true
			}
		}
	})
}

// name returns entry i's name, valid until the next read.
func (l *listing) name(i int) string {
	e := l.ents[i]
	if e.n == 0 {
		return ""
	}
	return unsafe.String(&l.arena[e.off], e.n)
}

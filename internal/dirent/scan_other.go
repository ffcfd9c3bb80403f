//go:build !linux

package dirent

// Scan lists a folder; see Portable.
func Scan(path string, buf []byte, fn func(name string, typ Type)) error {
	return Portable(path, buf, fn)
}

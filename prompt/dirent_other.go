//go:build !linux

package prompt

// scanDir lists a folder; see scanDirPortable.
func scanDir(path string, buf []byte, fn func(name string, typ byte)) error {
	return scanDirPortable(path, buf, fn)
}

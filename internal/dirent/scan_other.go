//go:build !linux

package dirent

import "os"

// Scan lists a folder with os.File.ReadDir, which also avoids a stat per
// entry where the system reports entry types.
func Scan(path string, _ []byte, fn func(name string, typ Type)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	for _, e := range ents {
		fn(e.Name(), TypeOf(e.Type()))
	}
	return err
}

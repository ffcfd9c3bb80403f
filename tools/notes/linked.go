package notes

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrLinked is wrapped by Open's error for a database in the agent's
// state folder (.agent) that is reached through a symlink.
var ErrLinked = errors.New("is a symlink")

// stateFolder is the name of the agent's state folder in a project.
const stateFolder = ".agent"

// checkLinks refuses a database inside a state folder (the default
// .agent/notes.db) when that folder, the file or one of SQLite's files
// beside it (-wal, -shm, -journal) is a symlink. A cloned repository can
// hold such links: followed, they would create a database anywhere the
// user can write, or read and write another project's notes. A path the
// user configured elsewhere (notes.path) may be a link: the user chose it.
func checkLinks(abs string) error {
	dir := filepath.Dir(abs)
	if filepath.Base(dir) != stateFolder {
		return nil
	}
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("notes database %s: %s %w; the agent keeps its state only in a real folder inside the project, so it does not follow it: replace the link with a folder", abs, dir, ErrLinked)
	}
	for _, p := range []string{abs, abs + "-wal", abs + "-shm", abs + "-journal"} {
		fi, err := os.Lstat(p)
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			what := "notes database " + abs
			if p != abs {
				what += ": " + p
			}
			return fmt.Errorf("%s %w; the agent keeps its notes only in a real file inside the project, so it does not follow it: remove the link, or set notes.path in your own config", what, ErrLinked)
		}
	}
	return nil
}

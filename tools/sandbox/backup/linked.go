package backup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// LinkedError reports that a folder of the agent's state (.agent, or one
// of its subfolders) is a symlink or not a folder. The agent keeps its
// state only in real folders inside the project: a link would send
// backups elsewhere (or let a cloned repository point them anywhere).
type LinkedError struct {
	Path string // project-relative, e.g. ".agent/backups"
	Link bool   // a symlink; otherwise a file or other non-folder
}

func (e *LinkedError) Error() string {
	if e.Link {
		return fmt.Sprintf("%s is a symlink; the agent keeps its state only in a real folder inside the project, so it does not follow it: replace the link with a folder", e.Path)
	}
	return fmt.Sprintf("%s is not a folder; the agent keeps its state there: move it away", e.Path)
}

// CheckReal verifies that every existing component of the project path p
// (such as ".agent/backups/<change set>") is a real folder, never a
// symlink; missing ones are fine (they are made as folders). It returns a
// *LinkedError otherwise.
func CheckReal(root *os.Root, p string) error {
	cur := ""
	for _, c := range strings.Split(p, "/") {
		if cur == "" {
			cur = c
		} else {
			cur += "/" + c
		}
		fi, err := root.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("check %s: %w", cur, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return &LinkedError{Path: cur, Link: true}
		}
		if !fi.IsDir() {
			return &LinkedError{Path: cur}
		}
	}
	return nil
}

package conversation

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ProjectFolder returns the project folder named by --dir (dir; "" is
// the current folder), absolute; a folder that is not there is bad usage.
func ProjectFolder(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("project folder: %w", err)
	}
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", UsageErrorf("--dir %s: no such folder", dir)
	case errors.Is(err, fs.ErrPermission):
		return "", UsageErrorf("--dir %s: permission denied", dir)
	case err != nil:
		return "", UsageErrorf("--dir: %v", err)
	}
	if !info.IsDir() {
		return "", UsageErrorf("--dir: %s is not a folder", dir)
	}
	return abs, nil
}

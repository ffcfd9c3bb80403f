package app

import (
	"os"
	"path/filepath"
)

// BroadFolder names root when it is the home folder (home) or /, where
// every readable file would be open to the model; "" otherwise.
func BroadFolder(root, home string) string {
	if filepath.Clean(root) == string(filepath.Separator) {
		return "the root folder"
	}
	if home == "" {
		return ""
	}
	a, errA := os.Stat(root)
	b, errB := os.Stat(home)
	if errA == nil && errB == nil && os.SameFile(a, b) {
		return "your home folder"
	}
	return ""
}

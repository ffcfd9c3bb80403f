package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentcli/agent/agent/conversation"
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
		return "", conversation.UsageErrorf("--dir %s: no such folder", dir)
	case errors.Is(err, fs.ErrPermission):
		return "", conversation.UsageErrorf("--dir %s: permission denied", dir)
	case err != nil:
		return "", conversation.UsageErrorf("--dir: %v", err)
	}
	if !info.IsDir() {
		return "", conversation.UsageErrorf("--dir: %s is not a folder", dir)
	}
	return abs, nil
}

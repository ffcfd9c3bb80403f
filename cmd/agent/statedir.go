package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// stateGitignore keeps the agent's state (sessions, backups, the audit
// log, notes) out of git while a shared project config can be committed.
const stateGitignore = "*\n!.gitignore\n!config.toml\n"

// ensureStateDir creates the project's .agent folder with its .gitignore
// when the folder does not exist yet. A folder that exists is left as
// the user keeps it.
func ensureStateDir(root string) error {
	dir := filepath.Join(root, ".agent")
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil // made meanwhile by another run
		}
		return fmt.Errorf("create .agent: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, ".gitignore"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("create .agent/.gitignore: %w", err)
	}
	if _, err := f.WriteString(stateGitignore); err != nil {
		f.Close()
		return fmt.Errorf("write .agent/.gitignore: %w", err)
	}
	return f.Close()
}

package notesview

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Edit opens the editor (its program and arguments) on a temporary file
// holding start, with env as its environment, on the process's own
// terminal, and returns what was saved.
func Edit(editor, env []string, start string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "agent-note-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "note.md")
	if err := os.WriteFile(path, []byte(start), 0o600); err != nil {
		return nil, err
	}
	cmd := exec.Command(editor[0], append(editor[1:], path)...)
	cmd.Env = env // what it runs is not the project's
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("editor %s: %w", filepath.Base(editor[0]), err)
	}
	return os.ReadFile(path)
}

package conversation

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/agentcli/agent/internal/atomicfile"
)

// stateGitignore keeps the agent's state (sessions, backups, notes, the
// audit log, the input history) out of git, while what a team shares
// (config.toml, custom commands, skills) can be committed. The patterns
// are anchored, so a folder called commands inside the state stays
// ignored.
const stateGitignore = `# Written by agent: its state (sessions, backups, notes, the audit log)
# stays out of git; config.toml, commands/ and skills/ can be committed.
# Once you change this file, agent leaves it as you keep it.
*
!/.gitignore
!/config.toml
!/commands/
!/commands/**
!/skills/
!/skills/**
`

// oldStateGitignores are the exact files earlier versions wrote: such a
// file is the default, not the user's, and is brought up to date. Any
// other content is the user's and is never touched.
var oldStateGitignores = []string{
	"*\n!.gitignore\n!config.toml\n",
}

// EnsureStateDir is the one place that makes the project's .agent
// folder: every command that keeps state there (a conversation's
// sessions, backups and audit log, notes, serve, tool calls, undo) calls
// it before writing. A new folder starts with stateGitignore; an existing
// one gets it only in place of a default an earlier version wrote. A
// folder that exists otherwise is left as the user keeps it, and so is
// a .agent or .gitignore that is a symlink.
func EnsureStateDir(root string) error {
	dir := filepath.Join(root, ".agent")
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Mkdir(dir, 0o755); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return nil // made meanwhile by another run
			}
			return fmt.Errorf("create .agent: %w", err)
		}
		return writeStateGitignore(dir, false)
	case err != nil:
		return fmt.Errorf("check .agent: %w", err)
	case !fi.IsDir():
		return nil // a link or a file: CheckStateDir and the stores say so
	}
	name := filepath.Join(dir, ".gitignore")
	if fi, err := os.Lstat(name); err != nil || !fi.Mode().IsRegular() {
		return nil // none (the user removed it), or a link: theirs
	}
	if old, err := atomicfile.ReadSmall(name, 4<<10); err == nil && slices.Contains(oldStateGitignores, string(old)) {
		return writeStateGitignore(dir, true)
	}
	return nil
}

// writeStateGitignore writes stateGitignore into the folder dir: a new
// file, or with replace one put in place of the old default by rename.
func writeStateGitignore(dir string, replace bool) error {
	name := filepath.Join(dir, ".gitignore")
	if replace {
		if err := writeAtomically(name, func(w io.Writer) error {
			_, err := io.WriteString(w, stateGitignore)
			return err
		}); err != nil {
			return fmt.Errorf("update .agent/.gitignore: %w", err)
		}
		return os.Chmod(name, 0o644)
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("create .agent/.gitignore: %w", err)
	}
	if _, err := f.WriteString(stateGitignore); err != nil {
		f.Close()
		return fmt.Errorf("write .agent/.gitignore: %w", err)
	}
	return f.Close()
}

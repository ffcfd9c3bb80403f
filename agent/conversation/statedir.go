package conversation

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/agentcli/agent/internal/atomicfile"
)

// stateGitignore keeps the agent's state (sessions, backups, notes, the
// audit log, the input history) out of git, while what a team shares
// (config.toml, custom commands, skills, sub-agents) can be committed.
// The patterns are anchored, so a folder called commands inside the
// state stays ignored.
const stateGitignore = `# Written by agent: its state (sessions, backups, notes, the audit log)
# stays out of git; config.toml, commands/, skills/ and agents/ can be
# committed. Once you change this file, agent leaves it as you keep it.
*
!/.gitignore
!/config.toml
!/commands/
!/commands/**
!/skills/
!/skills/**
!/agents/
!/agents/**
`

// oldStateGitignores are the exact files earlier versions wrote: such a
// file is the default, not the user's, and is brought up to date. Any
// other content is the user's and is never touched.
var oldStateGitignores = []string{
	"*\n!.gitignore\n!config.toml\n",
	`# Written by agent: its state (sessions, backups, notes, the audit log)
# stays out of git; config.toml, commands/ and skills/ can be committed.
# Once you change this file, agent leaves it as you keep it.
*
!/.gitignore
!/config.toml
!/commands/
!/commands/**
!/skills/
!/skills/**
`,
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
	var cur []byte
	if fi, err := os.Lstat(name); err == nil && fi.Mode().IsRegular() {
		cur, _ = atomicfile.ReadSmall(name, 4<<10)
		if slices.Contains(oldStateGitignores, string(cur)) {
			return writeStateGitignore(dir, true)
		}
	}
	if string(cur) != stateGitignore {
		return guardStateFolders(dir)
	}
	return nil
}

// secretFolders are the folders of .agent whose files may hold secrets
// (what commands printed, what files held): sessions and backups.
var secretFolders = []string{"sessions", "backups"}

// guardStateFolders keeps the folders of secretFolders out of git when
// .agent/.gitignore is not the agent's (a repository can ship one that
// ignores nothing, `!*`, and `git add -A` would then stage every
// session): each gets a .gitignore of its own with `*`, which a deeper
// folder's file makes win over any rule above it. The folders are made
// (0700) if missing; a link or a file in their place is left for the
// stores to refuse, and an existing .gitignore in them is left alone.
func guardStateFolders(dir string) error {
	for _, sub := range secretFolders {
		p := filepath.Join(dir, sub)
		if err := os.Mkdir(p, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("create .agent/%s: %w", sub, err)
		}
		if fi, err := os.Lstat(p); err != nil || !fi.IsDir() {
			continue
		}
		f, err := os.OpenFile(filepath.Join(p, ".gitignore"), os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("create .agent/%s/.gitignore: %w", sub, err)
		}
		_, err = f.WriteString("# Written by agent: what is kept here may hold secrets.\n*\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("write .agent/%s/.gitignore: %w", sub, err)
		}
	}
	return nil
}

// StateIgnoreWarning returns a one-line warning when .agent/.gitignore
// is not the agent's and may let git pick up the state kept directly in
// .agent (the audit log, notes.db, the input history): it does not start
// by ignoring everything (`*`), or re-includes (`!`) more than
// .gitignore, config.toml, commands/ and skills/. "" otherwise, and when
// there is no .agent folder. Sessions and backups are guarded anyway
// (guardStateFolders).
func StateIgnoreWarning(root string) string {
	name := filepath.Join(root, ".agent", ".gitignore")
	fi, err := os.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			return ".agent/.gitignore is not a regular file, so git may pick up the agent's state (audit log, notes, input history); make it a file whose first rule is *"
		}
		if _, err := os.Lstat(filepath.Join(root, ".agent")); err != nil {
			return ""
		}
		return ".agent/.gitignore is missing, so git may pick up the agent's state (audit log, notes, input history); add one whose first rule is *"
	}
	data, err := atomicfile.ReadSmall(name, 64<<10)
	if err != nil || string(data) == stateGitignore {
		return ""
	}
	allowed := []string{"!/.gitignore", "!.gitignore", "!/config.toml", "!config.toml", "!/commands/", "!/commands/**", "!commands/", "!commands/**", "!/skills/", "!/skills/**", "!skills/", "!skills/**"}
	all := false
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "*" || l == "/*" || l == "**":
			all = true
		case strings.HasPrefix(l, "!") && !slices.Contains(allowed, l):
			return ".agent/.gitignore (not the agent's) may let git pick up the agent's state (audit log, notes, input history): its rule " + strconv.Quote(l) + " re-includes more than config.toml, commands/ and skills/; sessions and backups stay ignored"
		}
	}
	if !all {
		return ".agent/.gitignore (not the agent's) does not ignore everything (no \"*\" rule), so git may pick up the agent's state (audit log, notes, input history); sessions and backups stay ignored"
	}
	return ""
}

// writeStateGitignore writes stateGitignore into the folder dir: a new
// file, or with replace one put in place of the old default by rename.
func writeStateGitignore(dir string, replace bool) error {
	name := filepath.Join(dir, ".gitignore")
	if replace {
		if err := WriteAtomically(name, func(w io.Writer) error {
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

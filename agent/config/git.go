package config

import (
	"strconv"
	"strings"
)

// Git configures git_commit. It is taken only from the user's own config
// file (a project's [git] table is ignored, see trust.go): a cloned
// project must not be able to let the agent commit unasked, or make its
// commits run the repository's hooks.
type Git struct {
	// AutoCommit lets a commit be approved like any other write (the
	// auto policy, --yes, an allow rule, "always"); by default only a
	// person's yes to each commit runs it.
	AutoCommit bool `toml:"auto_commit"`
	// Hooks lets git_commit run the repository's hooks (pre-commit,
	// commit-msg, ...); by default they are switched off.
	Hooks bool `toml:"hooks"`
}

// writeGit prints the [git] table for Write.
func (c *Config) writeGit(b *strings.Builder, line func(key, value string)) {
	b.WriteString("\n[git]                                        # from your own config only\n")
	line("git.auto_commit", strconv.FormatBool(c.Git.AutoCommit))
	line("git.hooks", strconv.FormatBool(c.Git.Hooks))
}

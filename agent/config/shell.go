package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Shell configures run_command. It is taken only from the user's own
// config file: a project's [shell] table is ignored (and named in
// IgnoredFrom), since a cloned project must never turn the sandbox off,
// allow its own commands or give itself the network.
type Shell struct {
	// Sandbox is "on" (bubblewrap; the default) or "off" (commands run
	// unsandboxed, and every one is asked about).
	Sandbox string `toml:"sandbox"`
	// Network gives every command the network; NetworkAllow only the
	// commands starting with one of its prefixes ("go mod download").
	Network      bool     `toml:"network"`
	NetworkAllow []string `toml:"network_allow"`
	// Allow are command prefixes that run without asking ("go test",
	// "make test"); a command with shell metacharacters never matches.
	Allow []string `toml:"allow"`
	// Caches are the folders a command may write besides the project;
	// unset means Go's, npm's and pip's caches. ToolDirs are folders of
	// the home shown read-only; unset means those PATH uses.
	Caches   []string `toml:"caches"`
	ToolDirs []string `toml:"tool_dirs"`
	// Timeout is a command's time limit when the model gives none.
	Timeout Duration `toml:"timeout"`
	// MemoryLimit bounds a command's memory; TmpSize each of the
	// sandbox's in-memory folders (/tmp, /dev/shm). 0 means the
	// defaults (half the machine's memory, at least 4GiB; 4GiB).
	MemoryLimit Size `toml:"memory_limit"`
	TmpSize     Size `toml:"tmp_size"`

	// IgnoredFrom is the project config file whose [shell] table was
	// ignored, if any: cmd/agent says so in one line.
	IgnoredFrom string `toml:"-"`
}

// The smallest limits accepted: below them not even a shell starts, or
// a compiler writes its first object.
const (
	minMemoryLimit Size = 16 << 20
	minTmpSize     Size = 1 << 20
)

// isProjectFile reports whether path is a project's config file
// (<root>/.agent/config.toml) rather than the user's own.
func isProjectFile(path string) bool {
	return filepath.Base(filepath.Dir(path)) == ".agent"
}

// keepUserShell restores the [shell] settings a project's file tried to
// set, and reports whether it did, so that their origins are not
// recorded either.
func (c *Config) keepUserShell(path string, md toml.MetaData, before Shell) bool {
	if !isProjectFile(path) || !md.IsDefined("shell") {
		return false
	}
	c.Shell = before
	c.Shell.IgnoredFrom = path
	return true
}

func (c *Config) validateShell() error {
	switch s := c.Shell; {
	case s.Sandbox != "on" && s.Sandbox != "off":
		return fmt.Errorf("shell.sandbox = %q (from %s): use on or off", s.Sandbox, c.Origin("shell.sandbox"))
	case s.Timeout <= 0:
		return fmt.Errorf("shell.timeout = %v (from %s): use a positive duration like 2m", s.Timeout, c.Origin("shell.timeout"))
	case s.MemoryLimit != 0 && s.MemoryLimit < minMemoryLimit:
		return fmt.Errorf("shell.memory_limit = %q (from %s): use at least %s, like 8GiB (or leave it out for the default)", s.MemoryLimit, c.Origin("shell.memory_limit"), minMemoryLimit)
	case s.TmpSize != 0 && s.TmpSize < minTmpSize:
		return fmt.Errorf("shell.tmp_size = %q (from %s): use at least %s, like 4GiB (or leave it out for the default)", s.TmpSize, c.Origin("shell.tmp_size"), minTmpSize)
	}
	return nil
}

// writeShell prints the [shell] table for Write.
func (c *Config) writeShell(b *strings.Builder, line func(key, value string)) {
	list := func(v []string) string {
		q := make([]string, len(v))
		for i, s := range v {
			q[i] = strconv.Quote(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	b.WriteString("\n[shell]                                      # from your own config only\n")
	if c.Shell.IgnoredFrom != "" {
		fmt.Fprintf(b, "# ignored: the [shell] table of %s\n", c.Shell.IgnoredFrom)
	}
	line("shell.sandbox", strconv.Quote(c.Shell.Sandbox))
	line("shell.network", strconv.FormatBool(c.Shell.Network))
	line("shell.network_allow", list(c.Shell.NetworkAllow))
	line("shell.allow", list(c.Shell.Allow))
	if c.Shell.Caches != nil {
		line("shell.caches", list(c.Shell.Caches))
	}
	if c.Shell.ToolDirs != nil {
		line("shell.tool_dirs", list(c.Shell.ToolDirs))
	}
	line("shell.timeout", strconv.Quote(c.Shell.Timeout.String()))
	if c.Shell.MemoryLimit != 0 {
		line("shell.memory_limit", strconv.Quote(c.Shell.MemoryLimit.String()))
	}
	if c.Shell.TmpSize != 0 {
		line("shell.tmp_size", strconv.Quote(c.Shell.TmpSize.String()))
	}
}

// clone copies s with its own slices: toml.Decode writes into existing
// slices in place, which would change a saved copy that shares them.
func (s Shell) clone() Shell {
	s.NetworkAllow = slices.Clone(s.NetworkAllow)
	s.Allow = slices.Clone(s.Allow)
	s.Caches = slices.Clone(s.Caches)
	s.ToolDirs = slices.Clone(s.ToolDirs)
	return s
}

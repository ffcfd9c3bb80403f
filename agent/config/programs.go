package config

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Programs ([programs]) gives the absolute path of a helper program the
// agent starts outside the sandbox (bwrap = "/usr/bin/bwrap"), instead
// of looking it up on PATH. It is taken only from the user's own config
// file: a project naming its own bwrap would escape the sandbox.
type Programs map[string]string

// keepUserPrograms restores the [programs] table a project's file tried
// to set, and reports whether it did, so that its origins are not
// recorded either.
func (c *Config) keepUserPrograms(path string, md toml.MetaData, before Programs) bool {
	if !isProjectFile(path) || !md.IsDefined("programs") {
		return false
	}
	c.Programs = before
	return true
}

func (c *Config) validatePrograms() error {
	for _, name := range slices.Sorted(maps.Keys(c.Programs)) {
		p := c.Programs[name]
		key := "programs." + name
		switch {
		case name == "" || strings.ContainsAny(name, "/\x00"):
			return fmt.Errorf("%s (from %s): name a program, like bwrap", quoteKey(key), c.Origin(key))
		case !filepath.IsAbs(p):
			return fmt.Errorf("%s = %q (from %s): use an absolute path, like /usr/bin/%s", quoteKey(key), p, c.Origin(key), quoteKey(name))
		}
	}
	return nil
}

// writePrograms prints the [programs] table for Write.
func (c *Config) writePrograms(b *strings.Builder, line func(key, value string)) {
	if len(c.Programs) == 0 {
		return
	}
	b.WriteString("\n[programs]                                   # from your own config only\n")
	for _, name := range slices.Sorted(maps.Keys(c.Programs)) {
		line("programs."+name, strconv.Quote(c.Programs[name]))
	}
}

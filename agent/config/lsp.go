package config

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// LSP configures the language servers ([lsp] and [lsp.NAME] tables):
// whether they run, whether warnings are reported beside errors, and
// servers added to the known ones or changing them.
type LSP struct {
	Enabled  *bool `toml:"enabled"`  // nil means on
	Warnings bool  `toml:"warnings"` // report warnings too, not only errors
	// Servers are the [lsp.NAME] tables, by NAME.
	Servers map[string]LSPServer `toml:",remain"`
}

// LSPServer is one [lsp.NAME] table: a server of its own, or what
// changes in the known server of that name.
type LSPServer struct {
	// Command is a program name (looked up on the trusted PATH), an
	// absolute path, or, in a project's file, a path relative to the
	// project folder. Args follow it.
	Command     string            `toml:"command"`
	Args        []string          `toml:"args"`
	FileTypes   []string          `toml:"filetypes"`
	RootMarkers []string          `toml:"root_markers"`
	Env         map[string]string `toml:"env"`
	Enabled     *bool             `toml:"enabled"` // false turns the server off

	// Origin is the file the table came from; FromProject is true for
	// the project's own (applied only once the project is trusted).
	Origin      string `toml:"-"`
	FromProject bool   `toml:"-"`
}

// On reports whether the language servers run.
func (l LSP) On() bool { return l.Enabled == nil || *l.Enabled }

// IsEnabled reports whether the server is switched on.
func (s LSPServer) IsEnabled() bool { return s.Enabled == nil || *s.Enabled }

// UnmarshalTOML reads an [lsp] table: enabled and warnings, and every
// other key a server's table. A table given again in a later file
// replaces the earlier one, as [mcp.servers.NAME] does.
func (l *LSP) UnmarshalTOML(data any) error {
	table, ok := data.(map[string]any)
	if !ok {
		return fmt.Errorf("lsp: want a table")
	}
	for _, key := range slices.Sorted(maps.Keys(table)) {
		v := table[key]
		switch key {
		case "enabled", "warnings":
			b, ok := v.(bool)
			if !ok {
				return fmt.Errorf("lsp.%s = %s: use true or false", key, formatTOML(v))
			}
			if key == "enabled" {
				l.Enabled = &b
			} else {
				l.Warnings = b
			}
			continue
		}
		server, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("lsp.%s is not a setting: [lsp] has enabled and warnings, and a table [lsp.NAME] for each server", quoteKey(key))
		}
		s, err := lspServer(key, server)
		if err != nil {
			return err
		}
		if l.Servers == nil {
			l.Servers = map[string]LSPServer{}
		}
		l.Servers[key] = s
	}
	return nil
}

// lspServer reads one [lsp.NAME] table.
func lspServer(name string, t map[string]any) (LSPServer, error) {
	var s LSPServer
	var err error
	for _, key := range slices.Sorted(maps.Keys(t)) {
		v := t[key]
		where := "lsp." + quoteKey(name) + "." + quoteKey(key)
		switch key {
		case "command":
			s.Command, err = tomlString(where, v)
		case "args":
			s.Args, err = tomlStrings(where, v)
		case "filetypes":
			s.FileTypes, err = tomlStrings(where, v)
		case "root_markers":
			s.RootMarkers, err = tomlStrings(where, v)
		case "enabled":
			b, ok := v.(bool)
			if !ok {
				return s, fmt.Errorf("%s = %s: use true or false", where, formatTOML(v))
			}
			s.Enabled = &b
		case "env":
			m, ok := v.(map[string]any)
			if !ok {
				return s, fmt.Errorf("%s: use a table of variables, like env = { GOFLAGS = \"-tags=dev\" }", where)
			}
			s.Env = map[string]string{}
			for k, ev := range m {
				if s.Env[k], err = tomlString(where+"."+quoteKey(k), ev); err != nil {
					return s, err
				}
			}
		default:
			return s, fmt.Errorf("%s is not a setting: a server's table has command, args, filetypes, root_markers, env and enabled", where)
		}
		if err != nil {
			return s, err
		}
	}
	return s, nil
}

func tomlString(where string, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s = %s: use a string", where, formatTOML(v))
	}
	return s, nil
}

func tomlStrings(where string, v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s = %s: use a list of strings, like [\"a\", \"b\"]", where, formatTOML(v))
	}
	out := make([]string, len(list))
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("%s = %s: use a list of strings, like [\"a\", \"b\"]", where, formatTOML(v))
		}
		out[i] = s
	}
	return out, nil
}

// claim records path as the origin of the servers the file at path just
// defined.
func (l *LSP) claim(path string) {
	for name, s := range l.Servers {
		if s.Origin == "" {
			s.Origin, s.FromProject = path, isProjectFile(path)
			l.Servers[name] = s
		}
	}
}

func (c *Config) validateLSP() error {
	for _, name := range slices.Sorted(maps.Keys(c.LSP.Servers)) {
		s := c.LSP.Servers[name]
		where := fmt.Sprintf("[lsp.%s] (from %s)", quoteKey(name), s.Origin)
		switch {
		case strings.ContainsAny(name, "/\x00") || name == "":
			return fmt.Errorf("%s: name the server with letters, digits, - and _", where)
		case s.Command != "" && strings.ContainsRune(s.Command, '/') && !filepath.IsAbs(s.Command) && !s.FromProject:
			return fmt.Errorf("%s: command = %s: give a program name or an absolute path", where, strconv.Quote(s.Command))
		}
	}
	return nil
}

// writeLSP prints the [lsp] settings for Write.
func (c *Config) writeLSP(b *strings.Builder, line func(key, value string)) {
	if c.LSP.Enabled == nil && !c.LSP.Warnings && len(c.LSP.Servers) == 0 {
		return
	}
	b.WriteString("\n[lsp]\n")
	line("lsp.enabled", strconv.FormatBool(c.LSP.On()))
	line("lsp.warnings", strconv.FormatBool(c.LSP.Warnings))
	for _, name := range slices.Sorted(maps.Keys(c.LSP.Servers)) {
		s := c.LSP.Servers[name]
		fmt.Fprintf(b, "\n[lsp.%s]\n", quoteKey(name))
		key := "lsp." + name + "."
		if s.Command != "" {
			line(key+"command", strconv.Quote(s.Command))
		}
		if s.Args != nil {
			line(key+"args", formatTOML(anyList(s.Args)))
		}
		if s.FileTypes != nil {
			line(key+"filetypes", formatTOML(anyList(s.FileTypes)))
		}
		if s.RootMarkers != nil {
			line(key+"root_markers", formatTOML(anyList(s.RootMarkers)))
		}
		if s.Enabled != nil {
			line(key+"enabled", strconv.FormatBool(*s.Enabled))
		}
	}
}

func anyList(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

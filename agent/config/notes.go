package config

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Notes configures the notes store.
type Notes struct {
	// Path is the notes database; "" means .agent/notes.db in the project.
	// Set it (for instance to ~/notes/notes.db) for one store shared by
	// every project. A relative path is relative to the project.
	Path string `toml:"path"`
}

// ToolSwitches turn groups of built-in tools on or off.
type ToolSwitches struct {
	// Notes offers the note_* tools to the model; nil means on.
	Notes *bool `toml:"notes"`
}

// NotesOn reports whether the note tools are offered to the model.
func (c *Config) NotesOn() bool { return c.Tools.Notes == nil || *c.Tools.Notes }

// NotesPath is the notes database for the project at root, with a
// leading ~/ of notes.path taken as home.
func (c *Config) NotesPath(root, home string) string {
	p := c.Notes.Path
	switch {
	case p == "":
		return filepath.Join(root, ".agent", "notes.db")
	case (p == "~" || strings.HasPrefix(p, "~/")) && home != "":
		return filepath.Join(home, p[1:])
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	}
	return filepath.Join(root, p)
}

// writeNotes prints the notes settings for Write.
func (c *Config) writeNotes(b *strings.Builder, line func(key, value string)) {
	b.WriteString("\n[notes]\n")
	line("notes.path", strconv.Quote(c.Notes.Path))
	b.WriteString("\n[tools]\n")
	line("tools.notes", strconv.FormatBool(c.NotesOn()))
}

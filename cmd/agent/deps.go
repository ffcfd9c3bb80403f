package main

import (
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
)

// deps is the only place that builds concrete things: the tool registry,
// the provider, the stores. Commands receive it and ask for what they need.
type deps struct {
	io *streams
	// files configures the file tools (allowed types, read limit, backup
	// retention); the zero value means the defaults.
	files fsedit.Options
}

// registry builds the built-in tools for the project at root. Each call
// starts a fresh file session: what the model has read is per conversation.
func (d *deps) registry(root string) *tools.Registry {
	return d.registryWith(fsedit.NewSession(d.fileRoot(root)))
}

// registryWith builds the built-in tools around the file session files
// (one whose reads were restored, for a continued conversation).
func (d *deps) registryWith(files *fsedit.Session) *tools.Registry {
	return tools.NewRegistry(files.Tools()...)
}

// fileRoot returns the file tools' sandbox for the project folder dir.
// Listings and searches hide what the file tree hides (prompt's rules).
func (d *deps) fileRoot(dir string) *fsedit.Root {
	opts := d.files
	if opts.NewIgnorer == nil {
		opts.NewIgnorer = func(dir string) (fsedit.Ignorer, error) { return prompt.NewIgnore(dir) }
	}
	return fsedit.NewRoot(dir, opts)
}

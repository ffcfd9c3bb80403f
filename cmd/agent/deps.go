package main

import (
	"errors"
	"net/http"
	"os"

	"github.com/agentcli/agent/agent/config"
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
	// trust reports whether the project at root may run its own MCP
	// servers; nil trusts none (mcp.go).
	trust func(root string) bool
	// notes builds the notes REST handler of the project at root for
	// agent serve; nil serves no /notes (serve.go).
	notes func(root string) http.Handler
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

// localConfig loads the configuration the way a run does, for commands
// that need no provider (prompt, backups, undo): a missing key is no error
// here, and no local server is probed.
func localConfig(root string) (config.Config, error) {
	env := config.EnvMap(os.Environ())
	cfg, err := config.Load(config.Input{Files: config.DefaultFiles(env, root), Env: env})
	if err != nil && !errors.Is(err, config.ErrNoProvider) {
		return config.Config{}, err
	}
	return cfg, nil
}

// configuredFileRoot returns the sandbox for the project folder dir ("" is
// the current folder) with the configured file
// settings, so that every command prunes backups by the same rules.
func (d *deps) configuredFileRoot(dir string) (*fsedit.Root, error) {
	dir, err := projectFolder(dir)
	if err != nil {
		return nil, err
	}
	cfg, err := localConfig(dir)
	if err != nil {
		return nil, err
	}
	d.files = fileOptions(cfg)
	return d.fileRoot(dir), nil
}

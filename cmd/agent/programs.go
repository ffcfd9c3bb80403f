package main

import (
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/tools/programs"
	"github.com/agentcli/agent/tools/shell"
)

// programs is the resolver of the helper programs the agent starts
// outside the sandbox for the project at root (bubblewrap, prlimit,
// espeak-ng, tmux, git, the editor, MCP servers): never from a PATH entry
// inside the project or a cache commands may write, and from the user's
// own [programs] table first. One per project folder and process, so
// each program is found once, at its first use, whatever a command
// plants afterwards.
func (f *factory) programs(root string, cfg config.Config) *programs.Resolver {
	f.progMu.Lock()
	defer f.progMu.Unlock()
	if r := f.progs[root]; r != nil {
		return r
	}
	r := programs.New(programs.Options{
		Path:      f.environ()["PATH"],
		Untrusted: shell.Writable(root, shellOptions(cfg)),
		Fixed:     cfg.Programs,
	})
	if f.progs == nil {
		f.progs = map[string]*programs.Resolver{}
	}
	f.progs[root] = r
	return r
}

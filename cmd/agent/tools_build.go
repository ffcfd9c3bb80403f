package main

import (
	"context"
	"time"

	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/shell"
)

// builtinTools is the agent's own tool set: the file tools of the
// conversation's session, then each optional family that is available.
// It is the one place where tool families are added.
func builtinTools(ctx context.Context, b toolBuild) (*toolSet, error) {
	set := &toolSet{reg: tools.NewRegistry(b.files.Tools()...)}
	if !b.readOnly {
		set.reg.Add(shellTool(b))
	}
	return set, nil
}

// shellTool is run_command, configured from the user's own [shell] table
// only (a project's is never read, see agent/config).
func shellTool(b toolBuild) tools.Tool {
	s := b.cfg.Shell
	return shell.New(b.root, shell.Options{
		NoSandbox:    s.Sandbox == "off",
		Network:      s.Network,
		NetworkAllow: s.NetworkAllow,
		Allow:        s.Allow,
		Caches:       s.Caches,
		ToolDirs:     s.ToolDirs,
		Timeout:      time.Duration(s.Timeout),
		NewIgnorer:   func(dir string) (shell.Ignorer, error) { return prompt.NewIgnore(dir) },
		Stream:       func(ctx context.Context, b []byte) { tools.Output(ctx)(b) },
	})
}

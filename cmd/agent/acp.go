package main

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/ui/editor"
)

// acpOptions are the flags of agent acp.
type acpOptions struct {
	provider string
	model    string
}

// newACPCmd is `agent acp`; runF, when set, runs instead.
func newACPCmd(d *factory, runF func(*acpOptions) error) *cobra.Command {
	o := &acpOptions{}
	cmd := &cobra.Command{
		Use:   "acp",
		Short: "Be an editor's agent: speak the Agent Client Protocol on stdin/stdout",
		Long: `acp is the agent for an editor that speaks the Agent Client Protocol
(Zed, JetBrains IDEs, Neovim's CodeCompanion, Emacs' agent-shell): the
editor starts it and talks JSON-RPC on standard input and output; logs go
to standard error. Each session is a conversation in the editor's folder,
with the chat's tools, sandbox, backups, rules and modes (ask, auto,
plan), saved among agent sessions. When the editor offers its files, the
file tools read its unsaved text and hand it their edits, after the same
checks. The key comes from the environment the editor starts agent in
(GEMINI_API_KEY, ...) or the configuration; a project's own settings
apply once trusted (agent chat asks; --trust): nothing is asked here.`,
		Example: `  # Zed (settings.json):
  #   "agent_servers": {"agent": {"type": "custom", "command": "agent", "args": ["acp"]}}
  agent acp --provider anthropic`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return runACP(cmd.Context(), d, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.provider, "provider", "", config.ProviderFlagHelp())
	f.StringVar(&o.model, "model", "", "model name")
	return cmd
}

// runACP serves the protocol on the standard streams. The output is the
// protocol's alone: whatever else the process would print goes to
// standard error, and no question is asked on a terminal (the editor's
// may be the controlling one).
func runACP(ctx context.Context, d *factory, o *acpOptions) error {
	in, out := d.io.In, d.io.Out
	if out == os.Stdout {
		os.Stdout = os.Stderr
		defer func() { os.Stdout = out.(*os.File) }()
	}
	quiet := *d.io
	quiet.In, quiet.Out, quiet.stdinTTY, quiet.stdoutTTY, quiet.openTTY = nil, d.io.ErrOut, false, false, nil
	d.io = &quiet
	env := d.environ()
	return editor.Serve(ctx, in, out, editor.Options{
		New:     d.builder().New,
		Flags:   config.Flags{Provider: o.provider, Model: o.model},
		Home:    env["HOME"],
		Getenv:  func(k string) string { return env[k] },
		Version: version,
		Log:     d.io.ErrOut,
	})
}

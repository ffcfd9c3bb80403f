package main

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/ui/editor"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/mcptool"
	"github.com/agentcli/agent/tools/programs"
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
		Long: `acp runs the agent for an editor that speaks the Agent Client Protocol
(Zed, JetBrains IDEs, Neovim's CodeCompanion, Emacs' agent-shell...): the
editor starts it and talks JSON-RPC on its standard input and output.
Logs and warnings go to standard error; nothing else is written to the
output.

Each session is a conversation in the folder the editor names, with the
same tools, sandbox, backups and rules as the chat, and is one of the
sessions agent sessions lists (the editor can load it again). When the
editor offers its files, read_file reads the editor's text (unsaved
changes included) and write_file hands the edit to the editor, after the
same checks. Changes are asked about in the editor; its modes are the
chat's: ask, auto and plan. MCP servers the editor names run besides the
configured ones.

The model and its key come from the environment and the configuration
as for every command (set GEMINI_API_KEY, say, in the environment the
editor starts agent in). A project's own settings apply once it is
trusted (agent chat asks once and remembers; --trust trusts for this
process): nothing is asked here.`,
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
	b := d.builder()
	b.ChosenMCP = func(ctx context.Context, cfg config.Config, specs []mcptool.Spec, progs *programs.Resolver, reg *tools.Registry) func() error {
		return app.AddChosenMCPTools(ctx, cfg, specs, progs, reg, version, d.warn)
	}
	return editor.Serve(ctx, in, out, editor.Options{
		New: func(ctx context.Context, co conversation.Options) (*conversation.Conversation, error) {
			return b.New(ctx, co)
		},
		Flags:   config.Flags{Provider: o.provider, Model: o.model},
		Home:    d.environ()["HOME"],
		Getenv:  func(k string) string { return d.environ()[k] },
		Version: version,
		Log:     d.io.ErrOut,
	})
}

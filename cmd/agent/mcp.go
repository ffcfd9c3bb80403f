package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/agent/ui/catalog"
	"github.com/agentcli/agent/tools/mcptool"
)

func (d *factory) warn(msg string) { fmt.Fprintln(d.io.ErrOut, "agent: "+safeText(msg)) }

func newMCPCmd(d *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Show the MCP servers whose tools the agent imports",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newMCPListCmd(d))
	return cmd
}

func newMCPListCmd(d *factory) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the MCP servers, their status and their tools",
		Long: `list starts every configured MCP server ([mcp.servers.NAME] in config.toml,
and the project's .mcp.json once the project is trusted), asks each for its
tools within mcp.timeout, and prints the servers with their status and the
tools they add, as the model sees them. "ask" marks a tool whose calls need
approval; "auto" one your own config lists as read_only. A project's
servers run in the sandbox (bubblewrap), unless [mcp] unsandboxed in your
own config names them with the project ("~/src/app:NAME").`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := projectFolder(dir)
			if err != nil {
				return err
			}
			cfg, err := d.localConfig(root)
			if err != nil {
				return err
			}
			progs := d.programs(root, cfg)
			specs, notes, err := app.MCPSpecs(cfg, root, progs)
			if err != nil {
				return err
			}
			pending, notes := app.MCPUntrusted(cfg, d.environ(), root, notes)
			written := app.MCPWritten(cfg, root)
			setup := app.MCPSetup{Version: version, Alert: d.warn, UserDir: userConfigDir(d.environ())}
			c, servers := mcptool.Discover(cmd.Context(), specs, app.MCPOptions(cfg, root, progs, setup))
			defer c.Close()
			return catalog.MCPList(d.io.Out, specs, written, servers, pending, notes)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "the project folder (default: the current folder)")
	return cmd
}

package main

import (
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/catalogview"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/mcptool"
	"github.com/agentcli/agent/tools/programs"
)

// mcpSpecs are the configured MCP servers of the project at root as
// specs (config.MCPLaunches: a project's servers only once it is trusted,
// and never with the agent's keys), and notes saying, one line each,
// which were left out and why. ${PATH} in an entry is progs's trusted
// PATH, as the server's own PATH is.
func mcpSpecs(cfg config.Config, root string, progs *programs.Resolver) ([]mcptool.Spec, []string, error) {
	getenv := func(name string) string {
		if name == "PATH" {
			return progs.Path()
		}
		return os.Getenv(name)
	}
	launches, notes, err := cfg.MCPLaunches(root, getenv, tools.SecretTest(os.Environ(), cfg.SecretVars(), cfg.SecretValues()))
	specs := make([]mcptool.Spec, len(launches))
	for i, l := range launches {
		specs[i] = mcptool.Spec(l)
	}
	return specs, notes, err
}

// mcpOptions are the discovery options of cfg: server programs found by
// progs, started with its trusted PATH (an interpreter a server's "#!"
// line looks up is not taken from the project either), and never given
// the agent's keys.
func mcpOptions(cfg config.Config, progs *programs.Resolver) mcptool.Options {
	return mcptool.Options{Timeout: cfg.MCP.Limit(), Version: version, LookPath: progs.Find, Environ: progs.Environ(os.Environ()),
		Secrets: cfg.SecretVars(), SecretValues: cfg.SecretValues()}
}

// addMCPTools discovers the configured servers' tools and adds them to
// reg, waiting at most the configured limit (servers start in parallel).
// A server that fails is skipped with one warning line. The returned
// function stops the servers.
func addMCPTools(ctx context.Context, cfg config.Config, root string, progs *programs.Resolver, reg *tools.Registry, warn func(string)) (func() error, error) {
	specs, notes, err := mcpSpecs(cfg, root, progs)
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		warn(n)
	}
	return mcptool.AddTools(ctx, reg, specs, mcpOptions(cfg, progs), warn), nil
}

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
approval; "auto" one your own config lists as read_only.`,
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
			specs, notes, err := mcpSpecs(cfg, root, progs)
			if err != nil {
				return err
			}
			var pending []config.NamedMCPServer
			if !cfg.ProjectTrusted {
				pending = config.UntrustedServers(d.environ(), root)
				// Listed as rows of their own: no note for them too.
				for _, p := range pending {
					notes = slices.DeleteFunc(notes, func(n string) bool { return n == config.UntrustedMCPNote(p.Name) })
				}
			}
			// What each server runs or is sent, as written (${VAR} by
			// name): the specs hold the values.
			written := map[string]config.MCPServer{}
			if all, _, err := cfg.MCPServers(root, cfg.ProjectTrusted); err == nil {
				for _, s := range all {
					written[s.Name] = s.MCPServer
				}
			}
			c, servers := mcptool.Discover(cmd.Context(), specs, mcpOptions(cfg, progs))
			defer c.Close()
			return catalogview.MCPList(d.io.Out, specs, written, servers, pending, notes)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "the project folder (default: the current folder)")
	return cmd
}

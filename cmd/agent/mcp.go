package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/mcptool"
	"github.com/agentcli/agent/tools/programs"
)

// mcpSpecs turns the configured MCP servers of the project at root into
// specs. The project's own servers (its .agent/config.toml and .mcp.json)
// count only when trusted. notes says, one line each, which servers were
// left out and why.
func mcpSpecs(cfg config.Config, root string, trusted bool) (specs []mcptool.Spec, notes []string, err error) {
	servers, skipped, err := cfg.MCPServers(root, trusted)
	if err != nil && !trusted {
		// The error is the project's .mcp.json, which an untrusted
		// project never has used: a broken one (a cloned repository's)
		// must not stop every command. The user's own servers still run.
		servers, skipped = ownServers(cfg), nil
		notes = append(notes, safeText(err.Error())+"; ignored, since the project is not trusted")
		err = nil
	}
	if err != nil {
		return nil, nil, err
	}
	for _, name := range skipped {
		notes = append(notes, untrustedNote(name))
	}
	for _, s := range servers {
		if err := config.CheckMCPServer(s.Name, s.MCPServer); err != nil {
			notes = append(notes, err.Error()+"; skipped")
			continue
		}
		ex := &expander{}
		if s.FromProject {
			// A project's server never gets the agent's keys, however
			// its entry asks for them.
			ex.secret = tools.SecretTest(os.Environ(), cfg.SecretVars())
		}
		specs = append(specs, mcptool.Spec{
			Name:        s.Name,
			Command:     ex.one(s.Command),
			Args:        ex.all(s.Args),
			Env:         ex.table(s.Env),
			Dir:         root,
			URL:         ex.one(s.URL),
			Headers:     ex.table(s.Headers),
			ReadOnly:    s.ReadOnly,
			FromProject: s.FromProject,
		})
		if len(ex.blanked) > 0 {
			notes = append(notes, fmt.Sprintf("mcp server %s: %s left empty: a project's server is never given the agent's keys", s.Name, strings.Join(ex.blanked, ", ")))
		}
	}
	return specs, notes, nil
}

// ownServers are the enabled servers of the user's own config, by name.
func ownServers(cfg config.Config) []config.NamedMCPServer {
	var out []config.NamedMCPServer
	for name, s := range cfg.MCP.Servers {
		if s.IsEnabled() && !s.FromProject {
			out = append(out, config.NamedMCPServer{Name: name, MCPServer: s})
		}
	}
	slices.SortFunc(out, func(a, b config.NamedMCPServer) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// untrustedNote is the warning for a project's server left out because
// the project is not trusted.
func untrustedNote(name string) string {
	return fmt.Sprintf("mcp server %s skipped: it is the project's, and the project is not trusted", name)
}

// notStarted marks, in agent mcp list, a project's server that is left
// out until the project is trusted.
const notStarted = "(not started: project not trusted; run with --trust or answer the question)"

// untrustedServers are the project's MCP servers (its .agent/config.toml
// and .mcp.json) that an untrusted project does not start, read as a
// trusted project's config would be, only to be listed: nothing of them
// runs. Nil when the project's config cannot be read that way (the
// untrusted load already said what it could).
func (d *factory) untrustedServers(root string) []config.NamedMCPServer {
	env := d.environ()
	cfg, err := config.Load(config.Input{Files: config.DefaultFiles(env, root), Project: config.ProjectFile(root), Trusted: true, Env: env})
	if err != nil && !errors.Is(err, config.ErrNoProvider) {
		return nil
	}
	servers, _, err := cfg.MCPServers(root, true)
	if err != nil {
		return nil
	}
	var out []config.NamedMCPServer
	for _, s := range servers {
		if s.FromProject {
			out = append(out, s)
		}
	}
	return out
}

// expander replaces ${VAR} and $VAR with the environment's values, as
// .mcp.json files expect: tokens stay in the environment, not in files.
// Where secret is set, a variable it names expands to nothing, and is
// listed in blanked.
type expander struct {
	secret  func(name, value string) bool
	blanked []string
}

func (e *expander) one(s string) string {
	return os.Expand(s, func(name string) string {
		v := os.Getenv(name)
		if e.secret != nil && e.secret(name, v) {
			if !slices.Contains(e.blanked, "$"+name) {
				e.blanked = append(e.blanked, "$"+name)
			}
			return ""
		}
		return v
	})
}

func (e *expander) all(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = e.one(s)
	}
	return out
}

func (e *expander) table(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = e.one(v)
	}
	return out
}

// mcpOptions are the discovery options of cfg: server programs found by
// progs, and never given the agent's keys.
func mcpOptions(cfg config.Config, progs *programs.Resolver) mcptool.Options {
	return mcptool.Options{Timeout: cfg.MCP.Limit(), Version: version, LookPath: progs.Find, Secrets: cfg.SecretVars()}
}

// addMCPTools discovers the configured servers' tools and adds them to
// reg, waiting at most the configured limit (servers start in parallel).
// A server that fails is skipped with one warning line. The returned
// function stops the servers.
func addMCPTools(ctx context.Context, cfg config.Config, root string, progs *programs.Resolver, reg *tools.Registry, warn func(string)) (func() error, error) {
	specs, notes, err := mcpSpecs(cfg, root, cfg.ProjectTrusted)
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		warn(n)
	}
	if len(specs) == 0 {
		return func() error { return nil }, nil
	}
	c, servers := mcptool.Discover(ctx, specs, mcpOptions(cfg, progs))
	for _, s := range servers {
		if s.Err != nil {
			warn(fmt.Sprintf("mcp server %s skipped: %v", s.Name, s.Err))
			continue
		}
		for _, t := range s.Tools {
			if err := reg.Add(t); err != nil {
				warn(fmt.Sprintf("mcp server %s: %v", s.Name, err))
			}
		}
	}
	return c.Close, nil
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
			specs, notes, err := mcpSpecs(cfg, root, cfg.ProjectTrusted)
			if err != nil {
				return err
			}
			var pending []config.NamedMCPServer
			if !cfg.ProjectTrusted {
				pending = d.untrustedServers(root)
				// Listed as rows of their own: no note for them too.
				for _, p := range pending {
					notes = slices.DeleteFunc(notes, func(n string) bool { return n == untrustedNote(p.Name) })
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
			c, servers := mcptool.Discover(cmd.Context(), specs, mcpOptions(cfg, d.programs(root, cfg)))
			defer c.Close()
			return printMCPList(d, specs, written, servers, pending, notes)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "the project folder (default: the current folder)")
	return cmd
}

// printMCPList writes the servers as a table: name, transport, what it
// runs or where it connects (whole, as written: serverCommand), status,
// and under each its tools.
func printMCPList(d *factory, specs []mcptool.Spec, written map[string]config.MCPServer, servers []mcptool.Server, pending []config.NamedMCPServer, notes []string) error {
	byName := map[string]mcptool.Server{}
	for _, s := range servers {
		byName[s.Name] = s
	}
	tw := tabwriter.NewWriter(d.io.Out, 0, 4, 2, ' ', 0)
	if len(specs) == 0 && len(pending) == 0 && len(notes) == 0 {
		fmt.Fprintln(d.io.Out, "No MCP servers configured: add [mcp.servers.NAME] to config.toml, or an .mcp.json to the project.")
	}
	for _, sp := range specs {
		s := byName[sp.Name]
		kind := "stdio"
		if sp.URL != "" {
			kind = "http"
		}
		where := serverCommand(written[sp.Name])
		status := fmt.Sprintf("ok, %d tools", len(s.Tools))
		if s.Err != nil {
			status = "failed: " + s.Err.Error()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", safeText(sp.Name), kind, tableCell(where), safeText(status))
		for _, t := range s.Tools {
			def := t.Definition()
			approval := "ask"
			if !def.Writes {
				approval = "auto"
			}
			desc := strings.TrimPrefix(def.Description, "(MCP server "+sp.Name+") ")
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", def.Name, approval, paramSummary(def), safeText(firstSentence(desc)))
		}
		for _, sk := range s.Skipped {
			fmt.Fprintf(tw, "  skipped\t\t\t%s\n", safeText(sk))
		}
	}
	for _, p := range pending {
		kind := "stdio"
		if p.URL != "" {
			kind = "http"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", safeText(p.Name), kind, tableCell(serverCommand(p.MCPServer)), notStarted)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(d.io.Out, safeText(n))
	}
	return nil
}

// tableCell is text made safe for one cell of the list: escaped for the
// terminal, long blanks counted, and the line breaks and tabs inside it
// (a quoted argument may hold them) shown as ⏎ and ⇥, which would
// otherwise break the table's rows and columns.
func tableCell(s string) string {
	return strings.NewReplacer("\n", "⏎", "\t", "⇥").Replace(safeText(termtext.ShowBlanks(s)))
}

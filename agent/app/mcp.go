package app

import (
	"context"
	"os"
	"slices"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/mcptool"
	"github.com/agentcli/agent/tools/programs"
)

// MCPSpecs are the configured MCP servers of the project at root as
// specs (config.MCPLaunches: a project's servers only once it is trusted,
// and never with the agent's keys), and notes saying, one line each,
// which were left out and why. ${PATH} in an entry is progs's trusted
// PATH, as the server's own PATH is.
func MCPSpecs(cfg config.Config, root string, progs *programs.Resolver) ([]mcptool.Spec, []string, error) {
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

// MCPOptions are the discovery options of cfg for the agent of version: server programs found by
// progs, started with its trusted PATH (an interpreter a server's "#!"
// line looks up is not taken from the project either), and never given
// the agent's keys.
func MCPOptions(cfg config.Config, progs *programs.Resolver, version string) mcptool.Options {
	return mcptool.Options{Timeout: cfg.MCP.Limit(), Version: version, LookPath: progs.Find, Environ: progs.Environ(os.Environ()),
		Secrets: cfg.SecretVars(), SecretValues: cfg.SecretValues()}
}

// AddMCPTools discovers the configured servers' tools and adds them to
// reg, waiting at most the configured limit (servers start in parallel).
// A server that fails is skipped with one warning line. The returned
// function stops the servers.
func AddMCPTools(ctx context.Context, cfg config.Config, root string, progs *programs.Resolver, reg *tools.Registry, version string, warn func(string)) (func() error, error) {
	specs, notes, err := MCPSpecs(cfg, root, progs)
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		warn(n)
	}
	return mcptool.AddTools(ctx, reg, specs, MCPOptions(cfg, progs, version), warn), nil
}

// MCPUntrusted are the project's servers left out until the project is
// trusted (none once it is), and notes without the lines that say so of
// them: agent mcp list shows them as rows of their own.
func MCPUntrusted(cfg config.Config, env map[string]string, root string, notes []string) ([]config.NamedMCPServer, []string) {
	var pending []config.NamedMCPServer
	if !cfg.ProjectTrusted {
		pending = config.UntrustedServers(env, root)
		for _, p := range pending {
			notes = slices.DeleteFunc(notes, func(n string) bool { return n == config.UntrustedMCPNote(p.Name) })
		}
	}
	return pending, notes
}

// MCPWritten is what each configured server runs or is sent, as written
// (${VAR} by name; the specs hold the values), by server name.
func MCPWritten(cfg config.Config, root string) map[string]config.MCPServer {
	written := map[string]config.MCPServer{}
	if all, _, err := cfg.MCPServers(root, cfg.ProjectTrusted); err == nil {
		for _, s := range all {
			written[s.Name] = s.MCPServer
		}
	}
	return written
}

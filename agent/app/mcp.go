package app

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/mcptool"
	"github.com/agentcli/agent/tools/programs"
	"github.com/agentcli/agent/tools/shell"
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
		specs[i] = mcptool.Spec{
			Name: l.Name, Command: l.Command, Args: l.Args, Env: l.Env, Dir: l.Dir,
			URL: l.URL, Headers: l.Headers, ReadOnly: l.ReadOnly, FromProject: l.FromProject,
			Sandboxed: l.Sandboxed, Network: l.Network,
		}
	}
	return specs, notes, err
}

// MCPSetup is what a project's MCP servers share with the rest of its
// conversation.
type MCPSetup struct {
	// Version is the agent's version, told to the servers.
	Version string
	// Watch is the git guard of the project's programs, the one its
	// run_command asks too (shell.GitWatch); nil makes one of their own.
	Watch *shell.GitWatch
	// Alert says a line to the person outside any call (what a server
	// left in the project when it started or stopped); nil says nothing.
	Alert func(string)
	// UserDir is the user's configuration folder, whose list of
	// projects names the records the sandbox hides; "" for none.
	UserDir string
}

// MCPOptions are the discovery options of cfg for the servers of the
// project at root: server programs found by progs, started with its
// trusted PATH (an interpreter a server's "#!" line looks up is not
// taken from the project either), never given the agent's keys, and a
// project's in the sandbox (mcpSandbox).
func MCPOptions(cfg config.Config, root string, progs *programs.Resolver, setup MCPSetup) mcptool.Options {
	if setup.Watch == nil {
		setup.Watch = shell.NewGitWatch(root, ShellOptions(cfg))
	}
	return mcptool.Options{Timeout: cfg.MCP.Limit(), Version: setup.Version, LookPath: progs.Find, Environ: progs.Environ(os.Environ()),
		Secrets: cfg.SecretVars(), SecretValues: cfg.SecretValues(), Sandbox: mcpSandbox(cfg, progs, setup), Alert: setup.Alert}
}

// mcpSandbox starts a project's MCP server in the sandbox run_command
// uses (shell.ProgramSandbox): the project writable but for its nested
// repositories and the files their configs name, the home hidden but
// for the tool folders of [shell] and the folders of a program found by
// name, read-only, the other projects' records hidden; the network as
// its entry says; only the environment it was given, with TMPDIR the
// sandbox's own /tmp, and that inside the sandbox only. The git watch
// checks what it leaves (shell.GitWatch). Bubblewrap is found where no
// command could have planted it; without it the server does not start.
func mcpSandbox(cfg config.Config, progs *programs.Resolver, setup MCPSetup) func(mcptool.Spec, string, []string, []string) (*exec.Cmd, mcptool.Guard, error) {
	return func(s mcptool.Spec, prog string, args, env []string) (*exec.Cmd, mcptool.Guard, error) {
		bwrap, err := shell.FindBwrap(progs.Find)
		if err != nil {
			return nil, nil, fmt.Errorf("a project's server runs only in the sandbox: %w; or let it run outside with [mcp] unsandboxed in your own config", err)
		}
		o := ShellOptions(cfg)
		o.Env = progs.Environ(os.Environ())
		o.Masked = conversation.OtherRecords(setup.UserDir, s.Dir)
		sb := shell.ProgramSandbox(s.Dir, o)
		sb.Bwrap, sb.Network = bwrap, s.Network
		sb.Env = append(slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, "TMPDIR=") }), "TMPDIR=/tmp")
		if !strings.ContainsRune(s.Command, '/') {
			sb.ReadOnly = append(slices.Clone(sb.ReadOnly), programDirs(prog, sb.Home)...)
		}
		guard := setup.Watch.Start("MCP server " + s.Name)
		sb.Protected = guard.Protected()
		cmd, err := sb.Command(append([]string{prog}, args...)...)
		if err != nil {
			guard.Stopped()
			return nil, nil, err
		}
		return cmd, guard, nil
	}
}

// programDirs are the installation folders of a program found by name
// (never one the project named by path, which could point anywhere), for
// where it was found and where its file really is (a link into a tool's
// installation): the folder holding it, or, when that is a bin or shims
// folder, the one above, a toolchain's (~/.pyenv for pyenv's shims,
// ~/.nvm/versions/node/v22 for nvm's node, a pipx venv). Never the home
// itself, a folder holding it, or ~/.local, whose share folder keeps the
// keyrings and the trash of many desktops.
func programDirs(prog, home string) []string {
	var dirs []string
	add := func(file string) {
		d := filepath.Dir(file)
		if b := filepath.Base(d); b == "bin" || b == "shims" {
			d = filepath.Dir(d)
		}
		if home != "" && (d == filepath.Join(home, ".local") || inFolder(d, home)) {
			d = filepath.Dir(file)
		}
		if !inFolder(d, home) && d != "/" && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	add(prog)
	if real, err := filepath.EvalSymlinks(prog); err == nil {
		add(real)
	}
	return dirs
}

// inFolder reports whether path is dir or lies inside it.
func inFolder(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return path != "" && err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// AddMCPTools discovers the configured servers' tools and adds them to
// reg, waiting at most the configured limit (servers start in parallel).
// A server that fails is skipped with one warning line. The returned
// function stops the servers.
func AddMCPTools(ctx context.Context, cfg config.Config, root string, progs *programs.Resolver, reg *tools.Registry, setup MCPSetup, warn func(string)) (func() error, error) {
	specs, notes, err := MCPSpecs(cfg, root, progs)
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		warn(n)
	}
	return mcptool.AddTools(ctx, reg, specs, MCPOptions(cfg, root, progs, setup), warn), nil
}

// AddChosenMCPTools adds the tools of servers a person chose for one
// conversation (an editor's, over ACP) to reg, as AddMCPTools does the
// configured ones: the same options and limits, run as the user's own
// servers are, since the person chose them. A server named like one
// already added is skipped with a warning. The returned function stops
// them.
func AddChosenMCPTools(ctx context.Context, cfg config.Config, root string, specs []mcptool.Spec, progs *programs.Resolver, reg *tools.Registry, version string, warn func(string)) func() error {
	var keep []mcptool.Spec
	for _, s := range specs {
		if taken(reg, s.Name) {
			warn(fmt.Sprintf("mcp server %s skipped: a configured server has that name", s.Name))
			continue
		}
		keep = append(keep, s)
	}
	return mcptool.AddTools(ctx, reg, keep, MCPOptions(cfg, root, progs, MCPSetup{Version: version}), warn)
}

// taken reports whether reg already holds a tool of the MCP server name.
func taken(reg *tools.Registry, name string) bool {
	prefix := mcptool.Prefix + name + "__"
	for _, n := range reg.Names() {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
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

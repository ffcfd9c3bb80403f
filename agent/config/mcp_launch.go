package config

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// MCPLaunch is one configured MCP server ready to start: its entry with
// $VAR and ${VAR} expanded from the environment, as .mcp.json files
// expect (tokens stay in the environment, not in files). Its fields are
// tools/mcptool.Spec's.
type MCPLaunch struct {
	Name        string
	Command     string
	Args        []string
	Env         map[string]string
	Dir         string // the project folder
	URL         string
	Headers     map[string]string
	ReadOnly    []string
	FromProject bool
	// Sandboxed: the program runs in the sandbox (a project's server,
	// unless the user's [mcp] unsandboxed names it); Network: with the
	// network there.
	Sandboxed, Network bool
}

// MCPLaunches turns the configured MCP servers of the project at root
// into launches. The project's own servers (its .agent/config.toml and
// .mcp.json) count only when c.ProjectTrusted, run in the sandbox unless
// the user's [mcp] unsandboxed names them, and never get the agent's
// keys: a variable secret names (by name or value, see tools.SecretTest)
// expands to nothing in them. getenv reads the environment. notes say,
// one line each, which servers were left out or changed, and why.
func (c *Config) MCPLaunches(root string, getenv func(string) string, secret func(name, value string) bool) (launches []MCPLaunch, notes []string, err error) {
	trusted := c.ProjectTrusted
	servers, skipped, err := c.MCPServers(root, trusted)
	if err != nil && !trusted {
		// The error is the project's .mcp.json, which an untrusted
		// project never has used: a broken one (a cloned repository's)
		// must not stop every command. The user's own servers still run.
		servers, skipped = c.ownServers(), nil
		notes = append(notes, err.Error()+"; ignored, since the project is not trusted")
		err = nil
	}
	if err != nil {
		return nil, nil, err
	}
	for _, name := range skipped {
		notes = append(notes, UntrustedMCPNote(name))
	}
	for _, s := range servers {
		if err := CheckMCPServer(s.Name, s.MCPServer); err != nil {
			notes = append(notes, err.Error()+"; skipped")
			continue
		}
		ex := &expander{getenv: getenv}
		if s.FromProject {
			// A project's server never gets the agent's keys, however
			// its entry asks for them.
			ex.secret = secret
		}
		launches = append(launches, MCPLaunch{
			Name:        s.Name,
			Command:     ex.one(s.Command),
			Args:        ex.all(s.Args),
			Env:         ex.table(s.Env),
			Dir:         root,
			URL:         ex.one(s.URL),
			Headers:     ex.table(s.Headers),
			ReadOnly:    s.ReadOnly,
			FromProject: s.FromProject,
			Sandboxed:   c.MCP.Sandboxed(root, s.Name, s.MCPServer),
			Network:     s.HasNetwork(),
		})
		if s.FromProject && s.Command != "" && !c.MCP.Sandboxed(root, s.Name, s.MCPServer) {
			// Said whether or not a question was asked (--trust).
			notes = append(notes, UnsandboxedMCPNote(s.Name))
		}
		if len(ex.blanked) > 0 {
			notes = append(notes, fmt.Sprintf("mcp server %s: %s left empty: a project's server is never given the agent's keys", s.Name, strings.Join(ex.blanked, ", ")))
		}
	}
	return launches, notes, nil
}

// UnsandboxedMCPNote is the note for a project's server that runs
// outside the sandbox, as the user's [mcp] unsandboxed says.
func UnsandboxedMCPNote(name string) string {
	return fmt.Sprintf("mcp server %s is the project's and runs OUTSIDE the sandbox, as you, reaching your files and the network: your [mcp] unsandboxed names it", name)
}

// UntrustedMCPNote is the note for a project's server left out because
// the project is not trusted.
func UntrustedMCPNote(name string) string {
	return fmt.Sprintf("mcp server %s skipped: it is the project's, and the project is not trusted", name)
}

// ownServers are the enabled servers of the user's own config, by name.
func (c *Config) ownServers() []NamedMCPServer {
	var out []NamedMCPServer
	for name, s := range c.MCP.Servers {
		if s.IsEnabled() && !s.FromProject {
			out = append(out, NamedMCPServer{Name: name, MCPServer: s})
		}
	}
	slices.SortFunc(out, func(a, b NamedMCPServer) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// expander replaces ${VAR} and $VAR with getenv's values. Where secret
// is set, a variable it names expands to nothing, and is listed in
// blanked.
type expander struct {
	getenv  func(string) string
	secret  func(name, value string) bool
	blanked []string
}

func (e *expander) one(s string) string {
	return os.Expand(s, func(name string) string {
		v := e.getenv(name)
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

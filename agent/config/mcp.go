package config

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// DefaultMCPTimeout is how long discovery waits for one MCP server when
// mcp.timeout is not set.
const DefaultMCPTimeout = 10 * time.Second

// MCP configures the MCP servers whose tools the agent imports
// ([mcp.servers.NAME] tables) and the time limit of their discovery.
type MCP struct {
	Timeout Duration             `toml:"timeout"` // per server, for start-up and tools/list
	Servers map[string]MCPServer `toml:"servers"`
	// ServeToken is the bearer token `agent serve --http` asks for when
	// AGENT_SERVE_TOKEN is not set.
	ServeToken string `toml:"serve_token"`
	// Unsandboxed names the projects' servers that run outside the
	// sandbox, as the person, once the project is trusted, each with
	// its project: "/abs/project:name" or "~/src/app:name" (a bare name
	// would let any cloned project naming a server so out). Only the
	// user's own config may set it.
	Unsandboxed []string `toml:"unsandboxed"`
	// exempt are Unsandboxed's entries read (resolveUnsandboxed).
	exempt []exemption
}

// exemption is one entry of [mcp] unsandboxed: the server name of the
// project at root (as written, ~ expanded, and where its links lead).
type exemption struct {
	root, real, name string
}

// resolveUnsandboxed reads the entries of [mcp] unsandboxed, a leading
// ~/ taken as home; a bare name, or a project that is not an absolute
// folder, is refused with the way to write it.
func (c *Config) resolveUnsandboxed(home string) error {
	c.MCP.exempt = nil
	for _, e := range c.MCP.Unsandboxed {
		i := strings.LastIndexByte(e, ':')
		dir, name := "", e
		if i >= 0 {
			dir, name = e[:i], e[i+1:]
		}
		if (dir == "~" || strings.HasPrefix(dir, "~/")) && home != "" {
			dir = filepath.Join(home, dir[1:])
		}
		if name == "" || !filepath.IsAbs(dir) {
			return fmt.Errorf("mcp.unsandboxed entry %q (from %s): name the project with the server, like \"/home/me/src/app:%s\" or \"~/src/app:%s\": a bare name would let any project's server of that name run outside the sandbox",
				e, c.Origin("mcp.unsandboxed"), cmp.Or(name, "NAME"), cmp.Or(name, "NAME"))
		}
		x := exemption{root: filepath.Clean(dir), name: name}
		x.real = x.root
		if real, err := filepath.EvalSymlinks(x.root); err == nil {
			x.real = real
		}
		c.MCP.exempt = append(c.MCP.exempt, x)
	}
	return nil
}

// unsandboxed reports whether [mcp] unsandboxed names the server name
// of the project at root.
func (m MCP) unsandboxed(root, name string) bool {
	root = filepath.Clean(root)
	real := root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		real = r
	}
	return slices.ContainsFunc(m.exempt, func(x exemption) bool {
		return x.name == name && (x.root == root || x.real == real)
	})
}

// MCPServer is one MCP server: a program spoken to over stdin/stdout
// (Command, Args, Env) or a Streamable HTTP endpoint (URL, Headers).
type MCPServer struct {
	Command string            `toml:"command"`
	Args    []string          `toml:"args"`
	Env     map[string]string `toml:"env"`
	URL     string            `toml:"url"`
	Headers map[string]string `toml:"headers"`
	Enabled *bool             `toml:"enabled"` // nil means enabled
	// ReadOnly names tools of this server that may run without approval.
	// It counts only in the user's own config: a project cannot declare
	// its own tools harmless.
	ReadOnly []string `toml:"read_only"`
	// Network is false to start a project's server in the sandbox
	// without the network; nil means with it. (A server of the user's
	// own config runs outside the sandbox, with the network.)
	Network *bool `toml:"network"`

	// Origin is the file the server was defined in; FromProject is true
	// when that file belongs to the project (its .agent/config.toml or
	// .mcp.json), whose servers run only once the project is trusted.
	Origin      string `toml:"-"`
	FromProject bool   `toml:"-"`
}

// IsEnabled reports whether the server is switched on.
func (s MCPServer) IsEnabled() bool { return s.Enabled == nil || *s.Enabled }

// HasNetwork reports whether the server's sandbox has the network: unless
// its entry says network = false.
func (s MCPServer) HasNetwork() bool { return s.Network == nil || *s.Network }

// Sandboxed reports whether the server s named name of the project at
// root runs in the sandbox: a program of the project's own files, unless
// the user's own [mcp] unsandboxed names it with the project.
func (m MCP) Sandboxed(root, name string, s MCPServer) bool {
	return s.FromProject && s.Command != "" && !m.unsandboxed(root, name)
}

// Limit is the discovery time limit of one server.
func (m MCP) Limit() time.Duration {
	if m.Timeout <= 0 {
		return DefaultMCPTimeout
	}
	return time.Duration(m.Timeout)
}

// claim records path as the origin of the servers the file at path just
// defined (a later file's table replaces an earlier one of the same name).
func (m *MCP) claim(path string) {
	project := filepath.Base(filepath.Dir(path)) == ".agent"
	for name, s := range m.Servers {
		if s.Origin == "" {
			s.Origin, s.FromProject = path, project
			m.Servers[name] = s
		}
	}
}

// NamedMCPServer is a server with its name.
type NamedMCPServer struct {
	Name string
	MCPServer
}

// MCPServers returns the enabled servers of c and of the project's
// .mcp.json (read from root), sorted by name. The project's servers, from
// either file, are left out unless trusted: they would run programs the
// user never chose. skipped names each server left out that way. A
// .mcp.json that cannot be read is an error; a missing one is not.
func (c *Config) MCPServers(root string, trusted bool) (servers []NamedMCPServer, skipped []string, err error) {
	all := map[string]MCPServer{}
	for name, s := range c.MCP.Servers {
		all[name] = s
	}
	proj, err := LoadMCPJSON(filepath.Join(root, MCPJSONFile))
	if err != nil {
		return nil, nil, err
	}
	for name, s := range proj {
		if _, ok := all[name]; !ok { // the user's own definition wins
			all[name] = s
		}
	}
	for name, s := range all {
		switch {
		case !s.IsEnabled():
		case s.FromProject && !trusted:
			skipped = append(skipped, name)
		default:
			if s.FromProject {
				s.ReadOnly = nil
			}
			servers = append(servers, NamedMCPServer{name, s})
		}
	}
	sort.Slice(servers, func(i, j int) bool { return servers[i].Name < servers[j].Name })
	sort.Strings(skipped)
	return servers, skipped, nil
}

// mcpJSON is the mcpServers format Claude Code, Cursor and Gemini CLI share.
type mcpJSON struct {
	MCPServers map[string]struct {
		Type     string            `json:"type"` // stdio, http, streamable-http; sse is not supported
		Command  string            `json:"command"`
		Args     []string          `json:"args"`
		Env      map[string]string `json:"env"`
		URL      string            `json:"url"`
		HTTPURL  string            `json:"httpUrl"` // Gemini CLI's name for url
		Headers  map[string]string `json:"headers"`
		Disabled bool              `json:"disabled"`
		Network  *bool             `json:"network"` // false: the sandbox has no network
	} `json:"mcpServers"`
}

// LoadMCPJSON reads the mcpServers object of a .mcp.json file. Every server
// it returns has FromProject set. A missing file gives no servers.
func LoadMCPJSON(path string) (map[string]MCPServer, error) {
	data, err := readConfigFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var f mcpJSON
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: not an mcpServers file: %w", path, err)
	}
	out := make(map[string]MCPServer, len(f.MCPServers))
	for name, s := range f.MCPServers {
		url := s.URL
		if url == "" {
			url = s.HTTPURL
		}
		if t := strings.ToLower(s.Type); t == "sse" {
			url = "" // the old SSE transport: left to CheckMCPServer to name
			s.Command = ""
		}
		enabled := !s.Disabled
		out[name] = MCPServer{
			Command: s.Command, Args: s.Args, Env: s.Env,
			URL: url, Headers: s.Headers, Enabled: &enabled, Network: s.Network,
			Origin: path, FromProject: true,
		}
	}
	return out, nil
}

// CheckMCPServer says what is wrong with a server's definition, if
// anything: a name the tool names cannot carry, or not exactly one of
// command and url.
func CheckMCPServer(name string, s MCPServer) error {
	if name == "" || strings.IndexFunc(name, func(r rune) bool {
		return !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) >= 0 {
		return fmt.Errorf("mcp server %q (%s): use a name of letters, digits, - and _", name, s.Origin)
	}
	switch {
	case s.Command == "" && s.URL == "":
		return fmt.Errorf("mcp server %s (%s): set command (a program) or url (a Streamable HTTP endpoint; SSE servers are not supported)", name, s.Origin)
	case s.Command != "" && s.URL != "":
		return fmt.Errorf("mcp server %s (%s): set command or url, not both", name, s.Origin)
	}
	return nil
}

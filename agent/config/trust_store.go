package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/agentcli/agent/internal/atomicfile"
)

// A project's .agent/config.toml and .mcp.json come with the project. The
// settings in them that could send data or keys elsewhere, or run
// programs, apply only once the user trusts the project: asked once on a
// terminal (by the commands), remembered here per folder and per content
// of those two files and of the files their MCP servers run (a change
// asks again), or given for one process with --trust.

// MCPJSONFile is the project's MCP server list, in the format several
// agents share.
const MCPJSONFile = ".mcp.json"

// UserDir is the user's configuration folder, $XDG_CONFIG_HOME/agent or
// ~/.config/agent; "" when neither variable is set.
func UserDir(env map[string]string) string {
	if dir := env["XDG_CONFIG_HOME"]; dir != "" {
		return filepath.Join(dir, "agent")
	}
	if home := env["HOME"]; home != "" {
		return filepath.Join(home, ".config", "agent")
	}
	return ""
}

// trustList is trust.json: the projects the user trusts.
type trustList struct {
	Projects map[string]trustEntry `json:"projects"`
}

type trustEntry struct {
	Hash    string    `json:"hash"`
	Trusted time.Time `json:"trusted"`
}

// trustPath is trust.json in the user's configuration folder.
func trustPath(env map[string]string) string {
	if dir := UserDir(env); dir != "" {
		return filepath.Join(dir, "trust.json")
	}
	return ""
}

// ProjectHash identifies the trusted content of the project at root: its
// config file and .mcp.json together, and the files inside the project
// that their MCP servers (MCPFiles) and its hooks (HookFiles) run, so
// that changing any of them asks again.
func ProjectHash(env map[string]string, root string) string {
	h := sha256.New()
	for _, name := range []string{ProjectFile(root), filepath.Join(root, MCPJSONFile)} {
		b, _ := atomicfile.ReadSmall(name, 1<<20)
		fmt.Fprintf(h, "%d\x00", len(b))
		h.Write(b)
	}
	for _, f := range MCPFiles(root, env) {
		fmt.Fprintf(h, "mcp file\x00%s\x00%s\x00", f.Rel, f.State)
	}
	for _, f := range HookFiles(root, env) {
		fmt.Fprintf(h, "hook file\x00%s\x00%s\x00", f.Rel, f.State)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// IsTrusted reports whether the user's trust list trusts the project at
// root with its current files.
func IsTrusted(env map[string]string, root string) bool {
	tl, _ := readTrust(trustPath(env))
	e, ok := tl.Projects[root]
	return ok && e.Hash == ProjectHash(env, root) && OpaqueMCPServer(root) == "" && OpaqueHook(root) == ""
}

func readTrust(path string) (trustList, error) {
	tl := trustList{Projects: map[string]trustEntry{}}
	if path == "" {
		return tl, nil
	}
	b, err := atomicfile.ReadSmall(path, 4<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return tl, nil
	}
	if err != nil {
		return tl, err
	}
	if err := json.Unmarshal(b, &tl); err != nil {
		return trustList{Projects: map[string]trustEntry{}}, fmt.Errorf("%s: %w", path, err)
	}
	if tl.Projects == nil {
		tl.Projects = map[string]trustEntry{}
	}
	return tl, nil
}

// RememberTrust records in the user's trust list that they trust the
// project at root as its files are now.
func RememberTrust(env map[string]string, root string) error {
	path := trustPath(env)
	if path == "" {
		return errors.New("no config folder to remember the trust in (set HOME or XDG_CONFIG_HOME)")
	}
	if OpaqueMCPServer(root) != "" {
		// The line itself was in the question, escaped; a hostile one
		// is not printed again here.
		return errors.New("not remembered: an MCP server of the project runs shell code whose files cannot all be followed ($(...), `...`, {a,b}, ~, eval), so the next start asks again")
	}
	if OpaqueHook(root) != "" {
		return errors.New("not remembered: a hook of the project runs shell code whose files cannot all be followed ($(...), `...`, {a,b}, ~, eval), so the next start asks again")
	}
	tl, _ := readTrust(path)
	tl.Projects[root] = trustEntry{Hash: ProjectHash(env, root), Trusted: time.Now().UTC()}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, 0o600, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(tl)
	})
}

// PendingSetting is one setting of a project waiting for trust.
type PendingSetting struct {
	// Name says which it is, for the line saying it is ignored
	// (".agent/config.toml: base_url", ".mcp.json: MCP server docs").
	Name string
	// Shown is what the trust question shows of it, whole: the value,
	// or for an MCP server everything it would run or send.
	Shown string
}

// PendingTrust are the settings of the project at root that wait for
// its trust: the ones the loader held back (Config.Ignored, not the
// user-only ones, which no trust applies), and the MCP servers of its
// .agent/config.toml and .mcp.json, each with everything it would run or
// send (MCPServer.CommandLine).
func PendingTrust(c Config, env map[string]string, root string) []PendingSetting {
	var out []PendingSetting
	servers, serversKnown := projectServers(c.MCP, env, root)
	for _, ig := range c.Ignored {
		if ig.UserOnly || ig.Key == "mcp.servers" && serversKnown {
			continue // the servers are shown one by one below
		}
		file := filepath.Base(filepath.Dir(ig.File)) + "/" + filepath.Base(ig.File)
		shown := fmt.Sprintf("%s: %s", file, ig)
		if ig.Key == "hooks" {
			shown = fmt.Sprintf("%s: hooks, run in the sandbox (your home hidden, the project writable, no network):\n%s", file, ig.Value)
		}
		out = append(out, PendingSetting{Name: file + ": " + ig.Key, Shown: shown})
	}
	return append(out, servers...)
}

// projectServers are the project's MCP servers as settings waiting for
// trust: "<file>: MCP server NAME runs" where it runs (in the sandbox,
// with or without the network, or outside it as the user's own m.Unsandboxed
// says) and the shell line it runs, or "connects to:" and the URL with its
// headers. known is false when they
// could not be read as the project's config would be once trusted; then
// .mcp.json's servers are listed as they can be read, and the trust
// question shows config.toml's [mcp] table as written.
func projectServers(m MCP, env map[string]string, root string) (out []PendingSetting, known bool) {
	servers := UntrustedServers(env, root)
	known = servers != nil
	if !known {
		m, err := LoadMCPJSON(filepath.Join(root, MCPJSONFile))
		if err != nil {
			return []PendingSetting{{Name: MCPJSONFile, Shown: MCPJSONFile + " (not a valid mcpServers file: none of its servers will start)"}}, false
		}
		for name, s := range m {
			servers = append(servers, NamedMCPServer{Name: name, MCPServer: s})
		}
		sort.Slice(servers, func(i, j int) bool { return servers[i].Name < servers[j].Name })
	}
	for _, s := range servers {
		file := MCPJSONFile
		if rel, err := filepath.Rel(root, s.Origin); err == nil {
			file = rel
		}
		name := fmt.Sprintf("%s: MCP server %s", file, s.Name)
		out = append(out, PendingSetting{Name: name, Shown: name + " " + m.where(root, s) + ":\n" + s.CommandLine()})
	}
	return out, known
}

// where says, for the trust question, where the project's server s runs
// and what it reaches there.
func (m MCP) where(root string, s NamedMCPServer) string {
	switch {
	case s.Command == "":
		return "connects to"
	case !m.Sandboxed(root, s.Name, s.MCPServer):
		return "runs OUTSIDE the sandbox, as you, reaching your files and the network (your [mcp] unsandboxed names it)"
	case s.HasNetwork():
		return "runs in the sandbox (your home hidden, the project writable), with the network"
	}
	return "runs in the sandbox (your home hidden, the project writable), without the network"
}

// UntrustedServers are the project's MCP servers (its .agent/config.toml
// and .mcp.json) that an untrusted project does not start, read as a
// trusted project's config would be, only to be shown: nothing of them
// runs. Nil when the project's config cannot be read that way (the
// untrusted load already said what it could).
func UntrustedServers(env map[string]string, root string) []NamedMCPServer {
	cfg, err := Load(Input{Files: DefaultFiles(env, root), Project: ProjectFile(root), Trusted: true, Env: env})
	if err != nil && !errors.Is(err, ErrNoProvider) {
		return nil
	}
	servers, _, err := cfg.MCPServers(root, true)
	if err != nil {
		return nil
	}
	var out []NamedMCPServer
	for _, s := range servers {
		if s.FromProject {
			out = append(out, s)
		}
	}
	return out
}

// TrustAnswers remembers, for one process, whether each project was
// trusted when asked, with its hash then: loading a configuration again
// (the chat's /model, while the chat owns the terminal) must not ask
// again, and a project whose trusted files changed since is untrusted.
type TrustAnswers struct {
	mu     sync.Mutex
	hashes map[string]string // by root; "" when not trusted
}

// Trusted reports the answer kept for root (asked: there is one).
func (a *TrustAnswers) Trusted(env map[string]string, root string) (trusted, asked bool) {
	a.mu.Lock()
	hash, asked := a.hashes[root]
	a.mu.Unlock()
	return asked && hash != "" && hash == ProjectHash(env, root), asked
}

// Keep records the answer for root.
func (a *TrustAnswers) Keep(env map[string]string, root string, trusted bool) {
	hash := ""
	if trusted {
		hash = ProjectHash(env, root)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.hashes == nil {
		a.hashes = map[string]string{}
	}
	a.hashes[root] = hash
}

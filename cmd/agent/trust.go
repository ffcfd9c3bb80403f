package main

import (
	"context"
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
	"strings"
	"time"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/internal/termtext"
)

// A project's .agent/config.toml and .mcp.json come with the project. The
// settings in them that could send data or keys elsewhere, or run
// programs, apply only once the user trusts the project: asked once on a
// terminal, remembered per folder and per content of those two files (a
// change asks again), or given for one process with --trust.

// mcpFile is the project's MCP server list, in the format several agents
// share.
const mcpFile = ".mcp.json"

// trustFile holds the projects the user trusts.
type trustFile struct {
	Projects map[string]trustEntry `json:"projects"`
}

type trustEntry struct {
	Hash    string    `json:"hash"`
	Trusted time.Time `json:"trusted"`
}

// trustPath is $XDG_CONFIG_HOME/agent/trust.json (or under ~/.config).
func trustPath(env map[string]string) string {
	if dir := userConfigDir(env); dir != "" {
		return filepath.Join(dir, "trust.json")
	}
	return ""
}

// projectHash identifies the trusted content: both files together, and
// the files inside the project that their MCP servers run, so that
// changing any of them asks again.
func projectHash(env map[string]string, root string) string {
	h := sha256.New()
	for _, name := range []string{config.ProjectFile(root), filepath.Join(root, mcpFile)} {
		b, _ := readSmall(name, 1<<20)
		fmt.Fprintf(h, "%d\x00", len(b))
		h.Write(b)
	}
	for _, f := range config.MCPFiles(root, env) {
		fmt.Fprintf(h, "mcp file\x00%s\x00%s\x00", f.Rel, f.State)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// readSmall reads a regular file of at most max bytes; anything else
// (a FIFO, a device, a huge file) is refused rather than waited on.
func readSmall(path string, max int64) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if info.Size() > max {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, max)
	}
	return os.ReadFile(path)
}

// isTrusted reports whether trust.json trusts the project at root with
// its current files.
func isTrusted(env map[string]string, root string) bool {
	tf, _ := readTrust(trustPath(env))
	e, ok := tf.Projects[root]
	return ok && e.Hash == projectHash(env, root)
}

func readTrust(path string) (trustFile, error) {
	tf := trustFile{Projects: map[string]trustEntry{}}
	if path == "" {
		return tf, nil
	}
	b, err := readSmall(path, 4<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return tf, nil
	}
	if err != nil {
		return tf, err
	}
	if err := json.Unmarshal(b, &tf); err != nil {
		return trustFile{Projects: map[string]trustEntry{}}, fmt.Errorf("%s: %w", path, err)
	}
	if tf.Projects == nil {
		tf.Projects = map[string]trustEntry{}
	}
	return tf, nil
}

// rememberTrust records that the user trusts the project at root as its
// files are now.
func rememberTrust(env map[string]string, root string) error {
	path := trustPath(env)
	if path == "" {
		return errors.New("no config folder to remember the trust in (set HOME or XDG_CONFIG_HOME)")
	}
	tf, _ := readTrust(path)
	tf.Projects[root] = trustEntry{Hash: projectHash(env, root), Trusted: time.Now().UTC()}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return writeAtomically(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(tf)
	})
}

// trustQuestion asks on a terminal whether to trust the project, showing
// exactly the settings that trusting it would apply, each whole (long
// blanks counted, see termtext.ShowBlanks).
func trustQuestion(ctx context.Context, in io.Reader, out io.Writer, root string, settings []pendingSetting) (bool, error) {
	fmt.Fprintf(out, "\nThis project (%s) has settings that can send your data or keys elsewhere, or run programs:\n", safeText(root))
	for _, s := range settings {
		fmt.Fprintf(out, "  %s\n", strings.ReplaceAll(safeText(termtext.ShowBlanks(s.shown)), "\n", "\n    "))
	}
	fmt.Fprint(out, "They apply only if you trust the project. Trust it? [y/N] ")
	t := &terminalAsker{in: in, out: out}
	line, err := t.readLine(ctx)
	if err != nil && line == "" {
		fmt.Fprintln(out)
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

// pendingSetting is one setting of a project waiting for trust: its name
// (for the line saying it is ignored) and what the question shows.
type pendingSetting struct {
	name, shown string
}

// trustPending are the settings of the project at root that wait for
// trust: the ones the config loader held back, and the MCP servers of
// its .agent/config.toml and .mcp.json, each with everything it would run
// or send.
func (f *factory) trustPending(cfg config.Config, root string) []pendingSetting {
	var out []pendingSetting
	servers, serversKnown := f.projectServers(root)
	for _, ig := range cfg.Ignored {
		if ig.UserOnly || ig.Key == "mcp" && serversKnown {
			continue // the servers are shown one by one below
		}
		file := filepath.Base(filepath.Dir(ig.File)) + "/" + filepath.Base(ig.File)
		out = append(out, pendingSetting{name: file + ": " + ig.Key, shown: fmt.Sprintf("%s: %s", file, ig)})
	}
	return append(out, servers...)
}

// projectServers are the project's MCP servers as settings waiting for
// trust: "<file>: MCP server NAME runs:" and the shell line it runs, or
// "connects to:" and the URL with its headers (serverCommand). known is
// false when they could not be read as the project's config would be
// once trusted; then .mcp.json's servers are listed as they can be read,
// and the trust question shows config.toml's [mcp] table as written.
func (f *factory) projectServers(root string) (out []pendingSetting, known bool) {
	servers := f.untrustedServers(root)
	known = servers != nil
	if !known {
		m, err := config.LoadMCPJSON(filepath.Join(root, mcpFile))
		if err != nil {
			return []pendingSetting{{name: mcpFile, shown: mcpFile + " (not a valid mcpServers file: none of its servers will start)"}}, false
		}
		for name, s := range m {
			servers = append(servers, config.NamedMCPServer{Name: name, MCPServer: s})
		}
		sort.Slice(servers, func(i, j int) bool { return servers[i].Name < servers[j].Name })
	}
	for _, s := range servers {
		file := mcpFile
		if rel, err := filepath.Rel(root, s.Origin); err == nil {
			file = rel
		}
		name := fmt.Sprintf("%s: MCP server %s", file, s.Name)
		verb := "runs"
		if s.Command == "" {
			verb = "connects to"
		}
		out = append(out, pendingSetting{name: name, shown: name + " " + verb + ":\n" + serverCommand(s.MCPServer)})
	}
	return out, known
}

// settleTrust decides whether the project at root is trusted, asking on
// the terminal when it has settings waiting for trust and nothing has
// decided yet, and says on stderr what is ignored. It returns whether
// the project is trusted.
func (f *factory) settleTrust(ctx context.Context, root string, cfg config.Config) (bool, error) {
	env := f.environ()
	for _, ig := range cfg.Ignored {
		if ig.UserOnly {
			fmt.Fprintf(f.io.ErrOut, "agent: ignoring %s in %s: only your own config file may set it\n", safeText(ig.Key), safeText(ig.File))
		}
	}
	pending := f.trustPending(cfg, root)
	if len(pending) == 0 {
		return false, nil
	}
	if f.trust || isTrusted(env, root) {
		return true, nil
	}
	if in, out, closeTTY := approvalTerminal(f.io); in != nil {
		yes, err := trustQuestion(ctx, in, out, root, pending)
		closeTTY()
		if err != nil {
			return false, err
		}
		if yes {
			if err := rememberTrust(env, root); err != nil {
				fmt.Fprintf(f.io.ErrOut, "agent: trusted for this run only: %v\n", err)
			}
			return true, nil
		}
	}
	var names []string
	for _, p := range pending {
		names = append(names, p.name)
	}
	fmt.Fprintf(f.io.ErrOut, "agent: the project is not trusted, so these of its settings are ignored: %s (trust it with --trust, or answer yes when asked on a terminal)\n",
		safeText(strings.Join(names, "; ")))
	return false, nil
}

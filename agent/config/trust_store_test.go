package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRememberTrustUntilTheFilesChange(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	env := map[string]string{"HOME": home}
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".agent/config.toml", "base_url = \"http://127.0.0.1:1/\"\n")
	write(MCPJSONFile, `{"mcpServers": {"docs": {"command": "node", "args": ["server.js"]}}}`)
	write("server.js", "// v1")
	if IsTrusted(env, root) {
		t.Fatal("trusted before anyone said so")
	}
	if err := RememberTrust(env, root); err != nil {
		t.Fatal(err)
	}
	if !IsTrusted(env, root) {
		t.Fatal("not trusted after RememberTrust")
	}
	if fi, err := os.Stat(filepath.Join(home, ".config", "agent", "trust.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("trust.json: %v, %v; want a file readable by the user only", fi, err)
	}
	// A script the project's MCP server runs changed (a sandboxed
	// command may write it): ask again.
	write("server.js", "// v2: curl evil")
	if IsTrusted(env, root) {
		t.Error("still trusted after the server's script changed")
	}
	if err := RememberTrust(env, root); err != nil {
		t.Fatal(err)
	}
	write(".agent/config.toml", "base_url = \"http://127.0.0.1:2/\"\n")
	if IsTrusted(env, root) {
		t.Error("still trusted after the config file changed")
	}
	if err := RememberTrust(map[string]string{}, root); err == nil {
		t.Error("RememberTrust with no config folder succeeded")
	}
}

func TestPendingTrustShowsEachServerWhole(t *testing.T) {
	root := t.TempDir()
	env := map[string]string{"HOME": t.TempDir(), "GEMINI_API_KEY": "k"}
	if err := os.MkdirAll(filepath.Join(root, ".agent"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, ".agent", "config.toml"), []byte("base_url = \"http://127.0.0.1:1/\"\n[shell]\nsandbox = \"off\"\n"), 0o644)
	os.WriteFile(filepath.Join(root, MCPJSONFile), []byte(`{"mcpServers": {"gh": {"command": "npx", "args": ["-y", "two words"], "env": {"T": "${GH_TOKEN}"}}}}`), 0o644)
	cfg, err := Load(Input{Files: DefaultFiles(env, root), Project: ProjectFile(root), Env: env})
	if err != nil {
		t.Fatal(err)
	}
	var names, shown []string
	for _, p := range PendingTrust(cfg, env, root) {
		names, shown = append(names, p.Name), append(shown, p.Shown)
	}
	got := strings.Join(names, "; ")
	if want := ".agent/config.toml: base_url; .mcp.json: MCP server gh"; got != want {
		t.Errorf("pending = %q, want %q (shell is the user's only: no trust applies it)", got, want)
	}
	if len(shown) == 2 && shown[1] != ".mcp.json: MCP server gh runs in the sandbox (your home hidden, the project writable), with the network:\nT=\"${GH_TOKEN}\" npx -y 'two words'" {
		t.Errorf("the server is shown as %q", shown[1])
	}
}

// TestPendingTrustSaysWhereEachServerRuns: the trust question says of
// each project server whether it runs in the sandbox, with the network
// or without (network = false in its entry), or outside it because the
// user's own [mcp] unsandboxed names it with the project; the project's
// own unsandboxed list counts for nothing.
func TestPendingTrustSaysWhereEachServerRuns(t *testing.T) {
	root := t.TempDir()
	xdg := t.TempDir()
	env := map[string]string{"HOME": t.TempDir(), "XDG_CONFIG_HOME": xdg, "GEMINI_API_KEY": "k"}
	os.MkdirAll(filepath.Join(xdg, "agent"), 0o700)
	os.WriteFile(filepath.Join(xdg, "agent", "config.toml"), []byte("[mcp]\nunsandboxed = [\""+root+":mine\"]\n"), 0o600)
	os.MkdirAll(filepath.Join(root, ".agent"), 0o755)
	os.WriteFile(filepath.Join(root, ".agent", "config.toml"), []byte(`[mcp]
unsandboxed = ["offline", "online"]
[mcp.servers.offline]
command = "python3"
args = ["tools/srv.py"]
network = false
`), 0o644)
	os.WriteFile(filepath.Join(root, MCPJSONFile), []byte(`{"mcpServers": {"online": {"command": "node", "args": ["s.js"]}, "mine": {"command": "srv"}, "remote": {"url": "https://x.example/mcp"}, "quiet": {"command": "q", "network": false}}}`), 0o644)
	cfg, err := Load(Input{Files: DefaultFiles(env, root), Project: ProjectFile(root), Env: env})
	if err != nil {
		t.Fatal(err)
	}
	var shown []string
	for _, p := range PendingTrust(cfg, env, root) {
		shown = append(shown, strings.SplitN(p.Shown, "\n", 2)[0])
	}
	want := []string{
		".mcp.json: MCP server mine runs OUTSIDE the sandbox, as you, reaching your files and the network (your [mcp] unsandboxed names it):",
		".agent/config.toml: MCP server offline runs in the sandbox (your home hidden, the project writable), without the network:",
		".mcp.json: MCP server online runs in the sandbox (your home hidden, the project writable), with the network:",
		".mcp.json: MCP server quiet runs in the sandbox (your home hidden, the project writable), without the network:",
		".mcp.json: MCP server remote connects to:",
	}
	if strings.Join(shown, "\n") != strings.Join(want, "\n") {
		t.Errorf("the trust question says\n%s\nwant\n%s", strings.Join(shown, "\n"), strings.Join(want, "\n"))
	}

	trusted, err := Load(Input{Files: DefaultFiles(env, root), Project: ProjectFile(root), Env: env, Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	trusted.ProjectTrusted = true
	launches, notes, err := trusted.MCPLaunches(root, func(string) string { return "" }, func(string, string) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(notes, UnsandboxedMCPNote("mine")) {
		t.Errorf("notes %q do not say mine runs outside the sandbox", notes)
	}
	got := map[string]string{}
	for _, l := range launches {
		got[l.Name] = fmt.Sprintf("sandboxed=%v network=%v", l.Sandboxed, l.Network)
	}
	for name, w := range map[string]string{
		"mine": "sandboxed=false network=true", "offline": "sandboxed=true network=false",
		"online": "sandboxed=true network=true", "quiet": "sandboxed=true network=false", "remote": "sandboxed=false network=true",
	} {
		if got[name] != w {
			t.Errorf("%s: %s, want %s", name, got[name], w)
		}
	}
}

// TestUnsandboxedNamesTheProject: [mcp] unsandboxed lets a server out
// only for the project its entry names (an absolute folder, or one
// under ~/): another project with a server of the same name runs it in
// the sandbox. A bare name is refused, and the error says how to write
// the entry.
func TestUnsandboxedNamesTheProject(t *testing.T) {
	home := t.TempDir()
	mine := filepath.Join(home, "src", "app")
	other := t.TempDir()
	for _, dir := range []string{mine, other} {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, MCPJSONFile), []byte(`{"mcpServers": {"local": {"command": "srv"}}}`), 0o644)
	}
	load := func(root, entry string) (Config, error) {
		xdg := t.TempDir()
		env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": xdg, "GEMINI_API_KEY": "k"}
		os.MkdirAll(filepath.Join(xdg, "agent"), 0o700)
		os.WriteFile(filepath.Join(xdg, "agent", "config.toml"), []byte("[mcp]\nunsandboxed = [\""+entry+"\"]\n"), 0o600)
		cfg, err := Load(Input{Files: DefaultFiles(env, root), Project: ProjectFile(root), Env: env, Trusted: true})
		cfg.ProjectTrusted = true
		return cfg, err
	}
	sandboxed := func(cfg Config, root string) bool {
		launches, _, err := cfg.MCPLaunches(root, func(string) string { return "" }, func(string, string) bool { return false })
		if err != nil || len(launches) != 1 {
			t.Fatalf("launches %v, %v", launches, err)
		}
		return launches[0].Sandboxed
	}
	for _, entry := range []string{"~/src/app:local", mine + ":local", mine + "/:local"} {
		cfg, err := load(mine, entry)
		if err != nil {
			t.Fatalf("%s: %v", entry, err)
		}
		if sandboxed(cfg, mine) {
			t.Errorf("%s: the named project's server runs in the sandbox", entry)
		}
		cfg, _ = load(other, entry)
		if !sandboxed(cfg, other) {
			t.Errorf("%s: another project's server of the same name runs outside the sandbox", entry)
		}
	}
	for _, entry := range []string{"local", "src/app:local", mine + ":"} {
		_, err := load(mine, entry)
		if err == nil || !strings.Contains(err.Error(), "name the project with the server, like") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: err = %v, want one line saying how to write it", entry, err)
		}
	}
}

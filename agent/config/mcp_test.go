package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMCPServersFromUserProjectAndMCPJSON(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "home", "agent", "config.toml")
	root := filepath.Join(dir, "proj")
	project := filepath.Join(root, ".agent", "config.toml")
	writeFile(t, user, `
[mcp]
timeout = "3s"
[mcp.servers.gh]
command = "gh-mcp"
args = ["--stdio"]
env = { GH_TOKEN = "${GH_TOKEN}" }
read_only = ["search"]
[mcp.servers.off]
url = "http://127.0.0.1:1/mcp"
enabled = false
[mcp.servers.shared]
command = "user-version"
`)
	writeFile(t, project, `
[mcp.servers.proj]
command = "proj-mcp"
read_only = ["delete_everything"]
[mcp.servers.shared]
command = "project-version"
`)
	writeFile(t, filepath.Join(root, ".mcp.json"), `{"mcpServers": {
		"web": {"type": "http", "url": "https://example.invalid/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
		"gem": {"httpUrl": "http://127.0.0.1:2/mcp"},
		"old": {"type": "sse", "url": "http://127.0.0.1:3/sse"},
		"gh": {"command": "not-this-one"}
	}}`)
	c, err := Load(Input{Files: []string{user, project}, Env: map[string]string{"GEMINI_API_KEY": "k"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.MCP.Limit().String() != "3s" {
		t.Errorf("timeout = %s", c.MCP.Limit())
	}
	if s := c.MCP.Servers["shared"]; s.Command != "project-version" || !s.FromProject || s.Origin != project {
		t.Errorf("a project table replaces the user's, and is the project's: %+v", s)
	}
	if s := c.MCP.Servers["gh"]; s.FromProject || s.Origin != user || s.Env["GH_TOKEN"] != "${GH_TOKEN}" {
		t.Errorf("gh = %+v", s)
	}

	untrusted, skipped, err := c.MCPServers(root, false)
	if err != nil {
		t.Fatal(err)
	}
	if names(untrusted) != "gh" || strings.Join(skipped, ",") != "gem,old,proj,shared,web" {
		t.Errorf("untrusted: servers %s, skipped %v", names(untrusted), skipped)
	}
	if untrusted[0].Command != "gh-mcp" || untrusted[0].ReadOnly[0] != "search" {
		t.Errorf("the user's gh wins over .mcp.json's and keeps read_only: %+v", untrusted[0])
	}
	trusted, skipped, _ := c.MCPServers(root, true)
	if names(trusted) != "gem,gh,old,proj,shared,web" || len(skipped) != 0 {
		t.Errorf("trusted: servers %s, skipped %v", names(trusted), skipped)
	}
	for _, s := range trusted {
		if s.FromProject && len(s.ReadOnly) > 0 {
			t.Errorf("a project may not mark its own tools read-only: %+v", s)
		}
		err := CheckMCPServer(s.Name, s.MCPServer)
		switch s.Name {
		case "old":
			if err == nil || !strings.Contains(err.Error(), "SSE") {
				t.Errorf("an SSE server is refused with a reason: %v", err)
			}
		default:
			if err != nil {
				t.Errorf("%s: %v", s.Name, err)
			}
		}
		if s.Name == "web" && (s.URL != "https://example.invalid/mcp" || s.Headers["Authorization"] != "Bearer ${TOKEN}") {
			t.Errorf("web = %+v", s)
		}
		if s.Name == "gem" && s.URL != "http://127.0.0.1:2/mcp" {
			t.Errorf("gem = %+v", s)
		}
	}
}

func names(ss []NamedMCPServer) string {
	var n []string
	for _, s := range ss {
		n = append(n, s.Name)
	}
	return strings.Join(n, ",")
}

func TestMCPConfigErrors(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "config.toml")
	writeFile(t, f, "[mcp.servers.x]\ncommand = \"a\"\ncomand = \"typo\"\n")
	if _, err := Load(Input{Files: []string{f}, Env: map[string]string{"GEMINI_API_KEY": "k"}}); err == nil || !strings.Contains(err.Error(), "comand") {
		t.Errorf("an unknown key is an error: %v", err)
	}
	writeFile(t, filepath.Join(dir, ".mcp.json"), "{not json")
	c := Defaults()
	if _, _, err := c.MCPServers(dir, true); err == nil || !strings.Contains(err.Error(), ".mcp.json") {
		t.Errorf("a broken .mcp.json is an error naming the file: %v", err)
	}
	for name, s := range map[string]MCPServer{
		"bad name": {Command: "x"},
		"none":     {},
		"both":     {Command: "x", URL: "http://127.0.0.1/mcp"},
	} {
		if CheckMCPServer(name, s) == nil {
			t.Errorf("CheckMCPServer(%q, %+v) = nil", name, s)
		}
	}
}

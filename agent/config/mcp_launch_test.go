package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestMCPLaunches(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, MCPJSONFile), []byte(`{"mcpServers": {"proj": {"command": "srv", "env": {"K": "${GEMINI_API_KEY}", "HOST": "$HOST"}}}}`), 0o644)
	getenv := func(k string) string {
		return map[string]string{"GEMINI_API_KEY": "secret", "HOST": "h", "TOK": "t"}[k]
	}
	secret := func(name, value string) bool { return name == "GEMINI_API_KEY" || value == "secret" }
	c := Defaults()
	c.MCP.Servers = map[string]MCPServer{"own": {Command: "own-srv", Args: []string{"--key=${GEMINI_API_KEY}"}, Headers: map[string]string{}}}

	launches, notes, err := c.MCPLaunches(root, getenv, secret)
	if err != nil {
		t.Fatal(err)
	}
	if len(launches) != 1 || launches[0].Name != "own" || !slices.Equal(launches[0].Args, []string{"--key=secret"}) || launches[0].Dir != root {
		t.Errorf("untrusted: launches = %+v, want the user's own server alone, expanded", launches)
	}
	if !slices.Equal(notes, []string{UntrustedMCPNote("proj")}) {
		t.Errorf("untrusted: notes = %q", notes)
	}

	c.ProjectTrusted = true
	launches, notes, err = c.MCPLaunches(root, getenv, secret)
	if err != nil || len(launches) != 2 {
		t.Fatalf("trusted: %+v, %v; want both servers", launches, err)
	}
	p := launches[1]
	if p.Name != "proj" || p.Env["K"] != "" || p.Env["HOST"] != "h" || !p.FromProject {
		t.Errorf("the project's server = %+v, want its key left empty and the rest expanded", p)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "$GEMINI_API_KEY left empty") {
		t.Errorf("trusted: notes = %q, want one saying the key was left empty", notes)
	}

	// A broken .mcp.json in an untrusted project stops nothing.
	os.WriteFile(filepath.Join(root, MCPJSONFile), []byte(`{not json`), 0o644)
	c.ProjectTrusted = false
	if launches, notes, err := c.MCPLaunches(root, getenv, secret); err != nil || len(launches) != 1 || len(notes) != 1 || !strings.Contains(notes[0], "ignored, since the project is not trusted") {
		t.Errorf("broken .mcp.json, untrusted: %+v, %q, %v", launches, notes, err)
	}
	c.ProjectTrusted = true
	if _, _, err := c.MCPLaunches(root, getenv, secret); err == nil {
		t.Error("broken .mcp.json, trusted: no error")
	}
}

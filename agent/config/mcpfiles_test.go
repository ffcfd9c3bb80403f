package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestMCPFiles(t *testing.T) {
	root := t.TempDir()
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".mcp.json", `{"mcpServers": {
		"a": {"command": "./server.sh", "args": ["tools/mcp.py", "--config=conf/x.json", "-v", "https://example.com/x", "/usr/bin/env", "${SUB}/y.js"]},
		"off": {"command": "python", "args": ["off.py"], "disabled": true}}}`)
	write(".agent/config.toml", "[mcp.servers.b]\ncommand = \"node\"\nargs = [\"dist/index.js\", \"../outside.js\"]\n")
	write("server.sh", "#!/bin/sh\n")
	write("tools/mcp.py", "print('v1')\n")
	env := map[string]string{"SUB": "lib"}

	rels := func(fs []MCPFile) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Rel)
		}
		return out
	}
	got := MCPFiles(root, env)
	want := []string{"conf/x.json", "dist/index.js", "lib/y.js", "off.py", "server.sh", "tools/mcp.py"}
	if !reflect.DeepEqual(rels(got), want) {
		t.Fatalf("MCPFiles = %q, want %q", rels(got), want)
	}
	if got[1].State != "absent" || got[4].State == "absent" {
		t.Errorf("states = %+v", got)
	}

	changes := []struct {
		name string
		do   func()
	}{
		{"a script rewritten", func() { write("tools/mcp.py", "import os; os.system('curl evil')\n") }},
		{"a missing script created", func() { write("dist/index.js", "evil()\n") }},
		{"a script replaced by a link", func() {
			os.Remove(filepath.Join(root, "server.sh"))
			os.Symlink("/bin/sh", filepath.Join(root, "server.sh"))
		}},
		{"the link retargeted", func() {
			os.Remove(filepath.Join(root, "server.sh"))
			os.Symlink("/bin/true", filepath.Join(root, "server.sh"))
		}},
	}
	before := got
	for _, c := range changes {
		c.do()
		after := MCPFiles(root, env)
		if reflect.DeepEqual(before, after) {
			t.Errorf("%s: MCPFiles did not change", c.name)
		}
		before = after
	}
	if again := MCPFiles(root, env); !reflect.DeepEqual(before, again) {
		t.Errorf("MCPFiles changed with nothing changed:\n%+v\n%+v", before, again)
	}
}

// TestMCPFilesNone: a project whose servers run no file of its own adds
// nothing, so that its trust stays as it was remembered.
func TestMCPFilesNone(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(`{"mcpServers": {"x": {"command": "npx", "args": ["-y", "@scope/server@1.2.3"]}, "y": {"url": "https://x/mcp"}}}`), 0o644)
	if got := MCPFiles(root, nil); len(got) != 0 {
		t.Errorf("MCPFiles = %+v, want none", got)
	}
}

package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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

// The words of a server's env values and of a command-line argument that
// name project files are covered too: a library preloaded, a module
// required, a script run by sh -c.
func TestMCPFilesInEnvAndCommandLines(t *testing.T) {
	root := t.TempDir()
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".mcp.json", `{"mcpServers": {"s": {"command": "/usr/bin/server", "args": ["-c", "./run.sh --quiet"],
		"env": {"LD_PRELOAD": "./lib.so", "NODE_OPTIONS": "--require ./hook.js --import=./esm.mjs", "PYTHONPATH": "/usr/lib/x:${SUB}/py", "DEBUG": "1", "URL": "https://example.com/a.js"}}}}`)
	for _, f := range []string{"run.sh", "lib.so", "hook.js", "esm.mjs", "vendor/py"} {
		write(f, "v1\n")
	}
	got := MCPFiles(root, map[string]string{"SUB": "vendor"})
	var rels []string
	for _, f := range got {
		rels = append(rels, f.Rel)
	}
	want := []string{"esm.mjs", "hook.js", "lib.so", "run.sh", "vendor/py"}
	if !reflect.DeepEqual(rels, want) {
		t.Fatalf("MCPFiles = %q, want %q", rels, want)
	}
	env := map[string]string{"SUB": "vendor"}
	before := ProjectHash(env, root)
	for _, f := range want {
		write(f, "changed by a command\n")
		after := ProjectHash(env, root)
		if after == before {
			t.Errorf("%s changed: the project hash did not", f)
		}
		before = after
	}
}

// TestMCPFilesInShellCode: a script named inside shell code is covered
// however the code spells it: after an operator, quoted in parts, as a
// glob, or after a cd into a project folder.
func TestMCPFilesInShellCode(t *testing.T) {
	for _, code := range []string{"true;./run.sh", "./ru?.sh", "./run.s[h]", `./r"un".sh`, "cd sub && ./run.sh", "exec ./run.sh&", "X=./run.sh; $X"} {
		root := t.TempDir()
		os.MkdirAll(filepath.Join(root, "sub"), 0o755)
		script := "run.sh"
		if strings.HasPrefix(code, "cd sub") {
			script = "sub/run.sh"
		}
		os.WriteFile(filepath.Join(root, script), []byte("v1\n"), 0o755)
		mcp, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"s": map[string]any{"command": "/bin/sh", "args": []string{"-c", code}}}})
		os.WriteFile(filepath.Join(root, ".mcp.json"), mcp, 0o644)
		before := ProjectHash(nil, root)
		os.WriteFile(filepath.Join(root, script), []byte("touch PWNED\n"), 0o755)
		if ProjectHash(nil, root) == before {
			t.Errorf("sh -c %q: %s rewritten, the project hash did not change (files: %+v)", code, script, MCPFiles(root, nil))
		}
	}
}

// TestOpaqueShellCodeIsNotRemembered: shell code whose files the trust
// cannot follow ($(...), braces, ~, eval) keeps the trust to one start,
// while a plain script line is remembered; a folder named by its
// absolute path is followed into, as a cd would.
func TestOpaqueShellCodeIsNotRemembered(t *testing.T) {
	for code, opaque := range map[string]bool{
		"exec python3 $(echo sub)/run.py": true,
		"exec ./{sub,}/run.sh":            true,
		"exec ~/sub/run.sh":               true,
		"eval ./run.sh":                   true,
		"cd sub && ./run.sh":              false,
		"exec ./run.sh --port ${PORT}":    false,
	} {
		root := t.TempDir()
		env := map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
		mcp, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"s": map[string]any{"command": "sh", "args": []string{"-c", code}}}})
		os.WriteFile(filepath.Join(root, ".mcp.json"), mcp, 0o644)
		err := RememberTrust(env, root)
		if (err != nil) != opaque || IsTrusted(env, root) == opaque {
			t.Errorf("sh -c %q: remember error %v, trusted after %v; want opaque %v", code, err, IsTrusted(env, root), opaque)
		}
	}
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "sub"), 0o755)
	os.WriteFile(filepath.Join(root, "sub", "run.sh"), []byte("v1\n"), 0o755)
	mcp, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"s": map[string]any{"command": "sh", "args": []string{"-c", "cd " + filepath.Join(root, "sub") + " && ./run.sh"}}}})
	os.WriteFile(filepath.Join(root, ".mcp.json"), mcp, 0o644)
	before := ProjectHash(nil, root)
	os.WriteFile(filepath.Join(root, "sub", "run.sh"), []byte("changed\n"), 0o755)
	if ProjectHash(nil, root) == before {
		t.Errorf("cd into the project's folder by its absolute path: sub/run.sh changed, the hash did not")
	}
}

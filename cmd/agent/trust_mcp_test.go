package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// TestTrustCoversInProjectMCPScripts: a project's MCP server that runs a
// script of the project (sh server.sh) is trusted with that script as it
// is; a command that rewrites it (run_command may write the project,
// and the server runs outside the sandbox) makes the project untrusted
// again, so the question comes back before the new script can run.
func TestTrustCoversInProjectMCPScripts(t *testing.T) {
	e := &trustEnv{t: t, dir: t.TempDir()}
	e.gemini = llmtest.NewGeminiServer(t, llmtest.Say("one"), llmtest.Say("two"), llmtest.Say("three"), llmtest.Say("four"))
	xdg := t.TempDir()
	os.MkdirAll(filepath.Join(xdg, "agent"), 0o700)
	os.WriteFile(filepath.Join(xdg, "agent", "config.toml"), []byte("base_url = \""+e.gemini.URL+"\"\n"), 0o600)
	e.env = map[string]string{"XDG_CONFIG_HOME": xdg, "GEMINI_API_KEY": "user-key"}
	marker := filepath.Join(t.TempDir(), "second-script-ran")
	os.WriteFile(filepath.Join(e.dir, ".mcp.json"), []byte(`{"mcpServers": {"local": {"command": "sh", "args": ["server.sh"]}}}`), 0o644)
	os.WriteFile(filepath.Join(e.dir, "server.sh"), []byte("exit 0\n"), 0o644)

	ask := func(answer string) string {
		t.Helper()
		tty := &ttyAnswer{Reader: strings.NewReader(answer)}
		if errOut, code := e.run(tty, "hi"); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		return tty.String()
	}
	if q := ask("y\n"); !strings.Contains(q, "Trust it?") || !strings.Contains(q, "server.sh") {
		t.Fatalf("no trust question naming the server: %q", q)
	}
	if q := ask(""); strings.Contains(q, "Trust it?") {
		t.Fatalf("asked again with nothing changed: %q", q)
	}
	// What a sandboxed command could do: rewrite the script.
	os.WriteFile(filepath.Join(e.dir, "server.sh"), []byte("touch "+marker+"\nexit 0\n"), 0o644)
	if q := ask("n\n"); !strings.Contains(q, "Trust it?") {
		t.Fatalf("not asked again after server.sh changed: %q", q)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the rewritten script ran before the person trusted it")
	}
}

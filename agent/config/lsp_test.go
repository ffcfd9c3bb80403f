package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLSPTables: [lsp] holds enabled, warnings and a table per server;
// a later file's table of a server replaces the earlier one.
func TestLSPTables(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.toml")
	os.WriteFile(user, []byte("[lsp]\nwarnings = true\n\n[lsp.gopls]\nargs = [\"-remote=auto\"]\n\n[lsp.zls]\nenabled = false\n\n[lsp.nimlsp]\ncommand = \"nimlsp\"\nfiletypes = [\"nim\"]\nroot_markers = [\"nim.cfg\"]\nenv = { NIMBLE_DIR = \"/opt/nimble\" }\n"), 0o644)
	c, err := Load(Input{Files: []string{user}, Env: map[string]string{"GEMINI_API_KEY": "k"}})
	if err != nil {
		t.Fatal(err)
	}
	if !c.LSP.On() || !c.LSP.Warnings || len(c.LSP.Servers) != 3 {
		t.Fatalf("LSP = %+v", c.LSP)
	}
	nim := c.LSP.Servers["nimlsp"]
	if nim.Command != "nimlsp" || nim.FileTypes[0] != "nim" || nim.RootMarkers[0] != "nim.cfg" || nim.Env["NIMBLE_DIR"] != "/opt/nimble" || nim.Origin != user || nim.FromProject {
		t.Errorf("nimlsp = %+v", nim)
	}
	if c.LSP.Servers["zls"].IsEnabled() || !c.LSP.Servers["gopls"].IsEnabled() {
		t.Errorf("zls and gopls = %+v", c.LSP.Servers)
	}
	if c.Origin("lsp.gopls.args") != user {
		t.Errorf("origin of lsp.gopls.args = %q", c.Origin("lsp.gopls.args"))
	}
}

// TestLSPMistakes: a misspelt key or a value of the wrong kind is an
// error naming it.
func TestLSPMistakes(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[lsp]\nenabled = \"no\"\n", "lsp.enabled = \"no\": use true or false"},
		{"[lsp]\nwarning = 1\n", "lsp.warning is not a setting"},
		{"[lsp.gopls]\ncomand = \"gopls\"\n", "lsp.gopls.comand is not a setting"},
		{"[lsp.gopls]\nargs = \"-rpc.trace\"\n", "lsp.gopls.args = \"-rpc.trace\": use a list of strings"},
		{"[lsp.gopls]\ncommand = \"bin/gopls\"\n", "give a program name or an absolute path"},
	} {
		f := filepath.Join(t.TempDir(), "config.toml")
		os.WriteFile(f, []byte(c.text), 0o644)
		_, err := Load(Input{Files: []string{f}, Env: map[string]string{"GEMINI_API_KEY": "k"}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error with %q", c.text, err, c.want)
		}
	}
}

// TestProjectLSPNeedsTrust: a project's [lsp] (a server pointing at its
// own script, or all of them turned off) is applied only once the
// project is trusted, and then marked as the project's.
func TestProjectLSPNeedsTrust(t *testing.T) {
	root := t.TempDir()
	proj := writeProject(t, root, "[lsp]\nwarnings = true\n\n[lsp.gopls]\ncommand = \"./tools/gopls.sh\"\n")
	c, err := Load(Input{Files: []string{proj}, Project: proj, Env: map[string]string{"GEMINI_API_KEY": "k"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.LSP.Warnings || len(c.LSP.Servers) != 0 || len(c.Ignored) != 1 || c.Ignored[0].Key != "lsp" || c.Ignored[0].UserOnly {
		t.Fatalf("untrusted: LSP %+v, ignored %+v; want [lsp] left for trust", c.LSP, c.Ignored)
	}
	if !strings.Contains(c.Ignored[0].Value, `command = "./tools/gopls.sh"`) {
		t.Errorf("the trust question would show %q, want the command", c.Ignored[0].Value)
	}
	c, err = Load(Input{Files: []string{proj}, Project: proj, Trusted: true, Env: map[string]string{"GEMINI_API_KEY": "k"}})
	if err != nil {
		t.Fatal(err)
	}
	if s := c.LSP.Servers["gopls"]; !c.LSP.Warnings || s.Command != "./tools/gopls.sh" || !s.FromProject {
		t.Errorf("trusted: LSP %+v", c.LSP)
	}
}

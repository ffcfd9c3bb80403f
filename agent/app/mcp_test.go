package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/tools/mcptool"
	"github.com/agentcli/agent/tools/programs"
)

// TestProjectServerNeedsBubblewrap: where bubblewrap is not installed, a
// project's server gets no command, and the error says why in one line.
func TestProjectServerNeedsBubblewrap(t *testing.T) {
	bin := t.TempDir()
	os.Symlink("/bin/sh", filepath.Join(bin, "sh"))
	progs := programs.New(programs.Options{Path: bin})
	start := mcpSandbox(config.Config{}, progs, MCPSetup{})
	cmd, _, err := start(mcptool.Spec{Name: "x", Command: "sh", Dir: t.TempDir(), Sandboxed: true}, filepath.Join(bin, "sh"), nil, nil)
	if cmd != nil || err == nil {
		t.Fatalf("started without bubblewrap: %v", cmd)
	}
	if msg := err.Error(); !strings.Contains(msg, "bubblewrap is not installed (install the package bubblewrap)") || strings.Contains(msg, "\n") {
		t.Errorf("error = %q", msg)
	}
}

// TestProgramDirs: a program found by name shows its installation, a
// toolchain's folder above bin or shims, and where a link leads (pipx's
// venv), never the home itself nor ~/.local.
func TestProgramDirs(t *testing.T) {
	home := "/nonexistent/home/me"
	for prog, want := range map[string][]string{
		home + "/.pyenv/shims/python3":            {home + "/.pyenv"},
		home + "/.nvm/versions/node/v22/bin/node": {home + "/.nvm/versions/node/v22"},
		home + "/.local/bin/tool":                 {home + "/.local/bin"},
		home + "/bin/tool":                        {home + "/bin"},
		home + "/tool":                            nil,
		"/nonexistent/opt/tool/bin/tool":          {"/nonexistent/opt/tool"},
	} {
		if got := programDirs(prog, home); !slices.Equal(got, want) {
			t.Errorf("programDirs(%s) = %q, want %q", prog, got, want)
		}
	}
	realHome := t.TempDir()
	venv := filepath.Join(realHome, ".local", "share", "pipx", "venvs", "tool")
	os.MkdirAll(filepath.Join(venv, "bin"), 0o755)
	os.MkdirAll(filepath.Join(realHome, ".local", "bin"), 0o755)
	os.WriteFile(filepath.Join(venv, "bin", "tool"), []byte("#!/bin/sh\n"), 0o755)
	link := filepath.Join(realHome, ".local", "bin", "tool")
	os.Symlink(filepath.Join(venv, "bin", "tool"), link)
	if got, want := programDirs(link, realHome), []string{filepath.Join(realHome, ".local", "bin"), venv}; !slices.Equal(got, want) {
		t.Errorf("programDirs(a pipx link) = %q, want %q", got, want)
	}
}

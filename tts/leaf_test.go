package tts_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLeaf keeps tts a leaf: it may use the standard library and the
// Gemini SDK (with what that needs), never another package of the agent.
func TestLeaf(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	const module = "github.com/agentcli/agent/"
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", module+"tts").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range strings.Fields(string(out)) {
		if strings.HasPrefix(d, module) && d != module+"tts" {
			t.Errorf("tts depends on %s", d)
		}
	}
}

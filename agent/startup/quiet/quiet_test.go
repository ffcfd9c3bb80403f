package quiet

import (
	"os/exec"
	"strings"
	"testing"
)

// TestInitGoesFirst keeps the two conditions under which the spec's
// initialisation order puts this package's init before lipgloss's:
// syscall is its only import, and its import path sorts before "os".
func TestInitGoesFirst(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \",\"}}", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	path, imports, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if imports != "syscall" {
		t.Errorf("package quiet imports %q; it may import syscall alone", imports)
	}
	if path >= "os" {
		t.Errorf("import path %s does not sort before os", path)
	}
}

package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNestedInstructions(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"AGENTS.md":                "root rules",
		"web/AGENTS.md":            "web rules: use tabs",
		"web/src/app.js":           "x",
		"web/src/deep/more.js":     "x",
		"api/CLAUDE.md":            "api rules",
		"api/handlers/h.go":        "x",
		"docs/guide.md":            "x",
		".agent/AGENTS.md":         "never",
		"secret/AGENTS.md/readme":  "a folder named AGENTS.md",
		"outside-link/placeholder": "x",
	})
	other := t.TempDir()
	writeFiles(t, other, map[string]string{"AGENTS.md": "leaked"})
	if err := os.Symlink(filepath.Join(other, "AGENTS.md"), filepath.Join(root, "docs", "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	n := NewNested(root, 0, nil)
	cases := []struct{ file, wantName, wantText string }{
		{"web/src/app.js", "web/AGENTS.md", "web rules: use tabs"},
		{"web/src/deep/more.js", "", ""}, // given already
		{"web/other.css", "", ""},
		{"api/handlers/h.go", "api/CLAUDE.md", "api rules"},
		{"main.go", "", ""}, // the root's file is in the system prompt
		{"docs/guide.md", "docs/AGENTS.md", "points outside the project folder"},
		{"../elsewhere/x", "", ""},
		{".agent/x", "", ""},
	}
	for _, c := range cases {
		name, text := n.For(c.file)
		if name != c.wantName || !strings.Contains(text, c.wantText) || (c.wantText == "" && text != "") {
			t.Errorf("For(%q) = %q, %q; want %q with %q", c.file, name, text, c.wantName, c.wantText)
		}
		if strings.Contains(text, "leaked") {
			t.Errorf("For(%q) sent a file from outside the project", c.file)
		}
	}
}

func TestUserInstructions(t *testing.T) {
	root, user := t.TempDir(), t.TempDir()
	writeFiles(t, root, map[string]string{"AGENTS.md": "project rules"})
	writeFiles(t, user, map[string]string{"AGENTS.md": "always answer in French"})
	p := buildTestPrompt(t, root, Options{UserDir: user})
	ins := p.Section(SectionInstructions)
	u, pr := strings.Index(ins, "always answer in French"), strings.Index(ins, "project rules")
	if u < 0 || pr < 0 || u > pr {
		t.Errorf("instructions section %q: want the user's, then the project's", ins)
	}
	if p.UserInstructionsFile != filepath.Join(user, "AGENTS.md") {
		t.Errorf("UserInstructionsFile = %q", p.UserInstructionsFile)
	}
	if none := buildTestPrompt(t, root, Options{UserDir: filepath.Join(user, "missing")}); strings.Contains(none.Section(SectionInstructions), "French") {
		t.Error("instructions from a missing folder")
	}
}

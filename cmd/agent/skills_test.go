package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSkillsCmd: agent skills --dir lists the project's and the user's
// skills (the user's folder shown from ~), marks the shadowed and the
// one the model is not offered, and warns of a bad one on stderr, once.
func TestSkillsCmd(t *testing.T) {
	home := t.TempDir()
	cfg := filepath.Join(home, ".config")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", cfg)
	dir := t.TempDir()
	files := map[string]string{
		filepath.Join(dir, ".agents/skills/pdf/SKILL.md"):       "---\nname: pdf\ndescription: >\n  Fill PDF forms.\n  Use when handling PDFs.\n---\nbody\n",
		filepath.Join(dir, ".claude/skills/bad/SKILL.md"):       "---\nname: bad\n---\nbody\n",
		filepath.Join(cfg, "agent/skills/pdf/SKILL.md"):         "---\nname: pdf\ndescription: Mine.\n---\n",
		filepath.Join(cfg, "agent/skills/by-hand/SKILL.md"):     "---\nname: by-hand\ndescription: \"Escape \\e[31m here.\"\ndisable-model-invocation: true\n---\n",
		filepath.Join(cfg, "agent/skills/notes/SKILL.md"):       "---\nname: notes\ndescription: Notes.\n---\n",
		filepath.Join(cfg, "agent/skills/notes/scripts/run.sh"): "echo\n",
	}
	for p, content := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := runAgent(t, "skills", "--dir", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	want := []string{
		"NAME     WHERE                  DESCRIPTION",
		"pdf      .agents/skills         Fill PDF forms. Use when handling PDFs.",
		`by-hand  ~/.config/agent/skills  Escape \x1b[31m here. (not offered to the model: disable-model-invocation)`,
		"notes    ~/.config/agent/skills  Notes.",
		"pdf      ~/.config/agent/skills  (shadowed by .agents/skills)",
	}
	got := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for i := range got {
		got[i] = strings.Join(strings.Fields(got[i]), " ")
	}
	for i := range want {
		want[i] = strings.Join(strings.Fields(want[i]), " ")
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("agent skills =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if errOut != "agent: skill .claude/skills/bad skipped: the front matter has no description\n" {
		t.Errorf("stderr = %q, want the one warning", errOut)
	}

	if _, _, code := runAgent(t, "skills", "--dir", filepath.Join(dir, "missing")); code != 2 {
		t.Errorf("a missing --dir exits %d, want 2", code)
	}
}

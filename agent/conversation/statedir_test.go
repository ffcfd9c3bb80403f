package conversation

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEnsureStateDir: a new .agent gets the default .gitignore, an old
// default is brought up to date, and a file the user wrote (or removed,
// or linked) is left alone.
func TestEnsureStateDir(t *testing.T) {
	read := func(t *testing.T, p string) string {
		t.Helper()
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	t.Run("new", func(t *testing.T) {
		root := t.TempDir()
		if err := EnsureStateDir(root); err != nil {
			t.Fatal(err)
		}
		if got := read(t, filepath.Join(root, ".agent", ".gitignore")); got != stateGitignore {
			t.Errorf(".gitignore = %q", got)
		}
	})
	for _, old := range oldStateGitignores {
		t.Run("old default", func(t *testing.T) {
			root := t.TempDir()
			gi := filepath.Join(root, ".agent", ".gitignore")
			writeStateFile(t, gi, old)
			if err := EnsureStateDir(root); err != nil {
				t.Fatal(err)
			}
			if got := read(t, gi); got != stateGitignore {
				t.Errorf("old default not upgraded: %q", got)
			}
			if fi, _ := os.Stat(gi); fi.Mode().Perm() != 0o644 {
				t.Errorf("upgraded .gitignore has mode %v, want 0644", fi.Mode().Perm())
			}
		})
	}
	t.Run("edited", func(t *testing.T) {
		root := t.TempDir()
		gi := filepath.Join(root, ".agent", ".gitignore")
		mine := oldStateGitignores[0] + "!notes.db\n"
		writeStateFile(t, gi, mine)
		if err := EnsureStateDir(root); err != nil {
			t.Fatal(err)
		}
		if got := read(t, gi); got != mine {
			t.Errorf("the user's .gitignore was rewritten: %q", got)
		}
	})
	t.Run("removed", func(t *testing.T) {
		root := t.TempDir()
		if err := os.Mkdir(filepath.Join(root, ".agent"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := EnsureStateDir(root); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Lstat(filepath.Join(root, ".agent", ".gitignore")); err == nil {
			t.Error("a .gitignore was written into an existing .agent the user keeps without one")
		}
	})
	t.Run("linked", func(t *testing.T) {
		root := t.TempDir()
		elsewhere := filepath.Join(t.TempDir(), "ignore")
		writeStateFile(t, elsewhere, oldStateGitignores[0])
		if err := os.Mkdir(filepath.Join(root, ".agent"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(elsewhere, filepath.Join(root, ".agent", ".gitignore")); err != nil {
			t.Fatal(err)
		}
		if err := EnsureStateDir(root); err != nil {
			t.Fatal(err)
		}
		if got := read(t, elsewhere); got != oldStateGitignores[0] {
			t.Errorf("a file outside the project was written through a link: %q", got)
		}
	})
}

// TestStateGitignoreWithGit asks git itself: the state stays ignored,
// config.toml, commands/, skills/ and agents/ can be committed.
func TestStateGitignoreWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is needed")
		}
		t.Skip("git not installed")
	}
	root := t.TempDir()
	if err := EnsureStateDir(root); err != nil {
		t.Fatal(err)
	}
	committed := []string{".agent/.gitignore", ".agent/config.toml", ".agent/commands/review.md", ".agent/commands/team/deploy.md", ".agent/skills/pdf/SKILL.md", ".agent/agents/reviewer.md"}
	ignored := []string{".agent/notes.db", ".agent/audit.jsonl", ".agent/history", ".agent/sessions/s1.jsonl", ".agent/backups/manifest.jsonl", ".agent/sessions/commands/x.md", ".agent/backups/cs/skills", ".agent/sessions/agents/x.md"}
	for _, p := range append(append([]string{}, committed[1:]...), ignored...) {
		writeStateFile(t, filepath.Join(root, p), "x\n")
	}
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return out.String()
	}
	git("init", "-q")
	git("add", "-A")
	got := strings.Fields(git("diff", "--cached", "--name-only"))
	slices.Sort(got)
	slices.Sort(committed)
	if !slices.Equal(got, committed) {
		t.Errorf("git adds %v, want %v", got, committed)
	}
}

// TestShippedGitignoreThatIgnoresNothing: a repository ships a
// .agent/.gitignore that re-includes everything; sessions and backups
// still stay out of `git add -A` (a .gitignore of their own), and the
// rest of the state is named in a one-line warning.
func TestShippedGitignoreThatIgnoresNothing(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is needed")
		}
		t.Skip("git not installed")
	}
	root := t.TempDir()
	writeStateFile(t, filepath.Join(root, ".agent/.gitignore"), "# shared agent settings\n!*\n")
	if err := EnsureStateDir(root); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{".agent/sessions/s1.jsonl", ".agent/backups/manifest.jsonl", ".agent/backups/cs/1-a.go"} {
		writeStateFile(t, filepath.Join(root, p), "DB_PASSWORD=hunter2\n")
	}
	cmd := exec.Command("git", "init", "-q")
	cmd.Dir = root
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command("git", "add", "-A", "--dry-run")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "sessions/s1") || strings.Contains(string(out), "backups/") {
		t.Errorf("git add -A would stage the agent's state:\n%s", out)
	}
	w := StateIgnoreWarning(root)
	if w == "" || strings.Contains(w, "\n") || !strings.Contains(w, `"!*"`) {
		t.Errorf("warning = %q, want one line naming the rule", w)
	}

	// The agent's own file: no warning, no extra files.
	clean := t.TempDir()
	if err := EnsureStateDir(clean); err != nil {
		t.Fatal(err)
	}
	if w := StateIgnoreWarning(clean); w != "" {
		t.Errorf("warning for the agent's own .gitignore: %q", w)
	}
	if _, err := os.Stat(filepath.Join(clean, ".agent/sessions")); err == nil {
		t.Error("sessions guarded although .agent/.gitignore is the agent's")
	}
	// A team's file that ignores everything but config: no warning.
	team := t.TempDir()
	writeStateFile(t, filepath.Join(team, ".agent/.gitignore"), "*\n!config.toml\n!/commands/**\n")
	if w := StateIgnoreWarning(team); w != "" {
		t.Errorf("warning for a file that ignores the state: %q", w)
	}
}

// writeStateFile writes content to p, making its folders.
func writeStateFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

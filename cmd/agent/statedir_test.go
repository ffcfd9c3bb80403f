package main

import (
	"bytes"
	"io/fs"
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
		if err := ensureStateDir(root); err != nil {
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
			writeTestFile(t, gi, old)
			if err := ensureStateDir(root); err != nil {
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
		writeTestFile(t, gi, mine)
		if err := ensureStateDir(root); err != nil {
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
		if err := ensureStateDir(root); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Lstat(filepath.Join(root, ".agent", ".gitignore")); err == nil {
			t.Error("a .gitignore was written into an existing .agent the user keeps without one")
		}
	})
	t.Run("linked", func(t *testing.T) {
		root := t.TempDir()
		elsewhere := filepath.Join(t.TempDir(), "ignore")
		writeTestFile(t, elsewhere, oldStateGitignores[0])
		if err := os.Mkdir(filepath.Join(root, ".agent"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(elsewhere, filepath.Join(root, ".agent", ".gitignore")); err != nil {
			t.Fatal(err)
		}
		if err := ensureStateDir(root); err != nil {
			t.Fatal(err)
		}
		if got := read(t, elsewhere); got != oldStateGitignores[0] {
			t.Errorf("a file outside the project was written through a link: %q", got)
		}
	})
}

// TestStateGitignoreWithGit asks git itself: the state stays ignored,
// config.toml, commands/ and skills/ can be committed.
func TestStateGitignoreWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is needed")
		}
		t.Skip("git not installed")
	}
	root := t.TempDir()
	if err := ensureStateDir(root); err != nil {
		t.Fatal(err)
	}
	committed := []string{".agent/.gitignore", ".agent/config.toml", ".agent/commands/review.md", ".agent/commands/team/deploy.md", ".agent/skills/pdf/SKILL.md"}
	ignored := []string{".agent/notes.db", ".agent/audit.jsonl", ".agent/history", ".agent/sessions/s1.jsonl", ".agent/backups/manifest.jsonl", ".agent/sessions/commands/x.md", ".agent/backups/cs/skills"}
	for _, p := range append(append([]string{}, committed[1:]...), ignored...) {
		writeTestFile(t, filepath.Join(root, p), "x\n")
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

// TestStateFilesPrivate: the session log, the file state beside it, the
// audit log and the notes database are the user's alone (0600, their
// folders 0700), whatever the umask lets through.
func TestStateFilesPrivate(t *testing.T) {
	h := newRunHarness(t, writeCall, "Done.")
	if _, errOut, code := h.run("--yes", "write it"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	var out, errOut bytes.Buffer
	d := newFactory(&streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	d.env = map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	cmd := newRootCmd(d)
	cmd.SetArgs([]string{"notes", "add", "--dir", h.dir, "a note"})
	if err := cmd.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("notes add: %v\n%s", err, errOut.String())
	}
	state := filepath.Join(h.dir, ".agent")
	files, dirs := 0, 0
	err := filepath.WalkDir(state, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(state, p)
		fi, err := e.Info()
		if err != nil {
			return err
		}
		switch {
		case rel == "." || rel == ".gitignore":
			return nil // shared with the team by design
		case e.IsDir():
			dirs++
			if fi.Mode().Perm()&0o077 != 0 {
				t.Errorf(".agent/%s/ has mode %v, want 0700", rel, fi.Mode().Perm())
			}
		default:
			files++
			t.Logf(".agent/%s %v", rel, fi.Mode().Perm())
			if fi.Mode().Perm()&0o077 != 0 {
				t.Errorf(".agent/%s has mode %v, want 0600", rel, fi.Mode().Perm())
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"notes.db", "audit.jsonl", "sessions"} {
		if _, err := os.Stat(filepath.Join(state, want)); err != nil {
			t.Errorf("the run and the note left no %s: %v", want, err)
		}
	}
	t.Logf("%d files and %d folders checked", files, dirs)
}

func writeTestFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

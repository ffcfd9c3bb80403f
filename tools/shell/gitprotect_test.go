package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plantCommondir makes the folder it runs in a git directory to git:
// HEAD plus a commondir file naming a folder with objects/, refs/ and a
// config whose pager touches the marker.
func plantCommondir(common, marker string) string {
	return "mkdir -p " + common + "/objects " + common + "/refs/heads && echo 'ref: refs/heads/main' > HEAD && echo " + common + " > commondir && " +
		"printf '[core]\\n\\tpager = \"touch " + marker + "; cat\"\\n[pager]\\n\\tstatus = true\\n' > " + common + "/config"
}

// TestCommondirPlantIsMovedAway: HEAD and a commondir file make a folder
// a git directory whose config lives where commondir points; the guard
// sees it as git does, in the project folder and in a folder of the
// person's files, and moves away only the entries that made it one.
func TestCommondirPlantIsMovedAway(t *testing.T) {
	needBwrap(t)
	needGit(t)
	t.Run("project folder", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "proj")
		os.MkdirAll(filepath.Join(dir, "pkg"), 0o755)
		os.WriteFile(filepath.Join(dir, "pkg/a.txt"), []byte("x\n"), 0o644)
		marker := filepath.Join(t.TempDir(), "PWNED")
		res := runIn(t, New(dir, Options{}), plantCommondir("build", marker))
		if meta(res, "exit_code") != "0" {
			t.Fatalf("the command failed: %s\n%s", res.Message, res.Content)
		}
		for _, p := range []string{"HEAD", "commondir"} {
			if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
				t.Errorf("%s is still in the project", p)
			}
		}
		if gitStatusRuns(t, dir, marker) {
			t.Fatal("git status ran the planted pager")
		}
		alerts := strings.Join(res.Alerts, "\n")
		if !strings.Contains(alerts, "created commondir, which made the project folder a git repository") {
			t.Errorf("alerts %q", res.Alerts)
		}
		if strings.Contains(strings.Join(res.Changed, " "), "HEAD") {
			t.Errorf("the changed files name the HEAD moved away: %q", res.Changed)
		}
		if !strings.Contains(res.Message, "1 planted git repository moved away") {
			t.Errorf("message %q", res.Message)
		}
	})
	t.Run("sub-folder of a repository", func(t *testing.T) {
		dir := project(t, map[string]string{"src/main.c": "int main;\n"})
		marker := filepath.Join(t.TempDir(), "PWNED")
		res := runIn(t, New(dir, Options{}), "cd src && "+plantCommondir(".cache", marker))
		if meta(res, "exit_code") != "0" {
			t.Fatalf("the command failed: %s\n%s", res.Message, res.Content)
		}
		if gitStatusRuns(t, filepath.Join(dir, "src"), marker) {
			t.Fatal("git status in src ran the planted pager")
		}
		if b, err := os.ReadFile(filepath.Join(dir, "src/main.c")); err != nil || string(b) != "int main;\n" {
			t.Errorf("the person's file was moved: %v", err)
		}
		if !strings.Contains(strings.Join(res.Alerts, "\n"), "created src/commondir, which made src a git repository") {
			t.Errorf("alerts %q", res.Alerts)
		}
	})
}

// TestExistingCommondirRepositoryIsReadOnly: a git directory made by a
// commondir file before the command (its config in build/) cannot have
// that config changed.
func TestExistingCommondirRepositoryIsReadOnly(t *testing.T) {
	needBwrap(t)
	dir := project(t, map[string]string{
		"sub/HEAD":                 "ref: refs/heads/main\n",
		"sub/commondir":            "../build\n",
		"sub/code.c":               "",
		"build/config":             "[core]\n",
		"build/objects/.keep":      "",
		"build/refs/heads/.keep":   "",
		"build/hooks/.keep":        "",
		"other/HEAD":               "ref: refs/heads/main\n",
		"other/objects/.keep":      "",
		"other/refs/.keep":         "",
		"other/person-notes.txt":   "mine\n",
		"other/hooks/pre-commit.x": "",
	})
	res := runIn(t, New(dir, Options{}), "echo '[core] fsmonitor = x' >> build/config; touch build/hooks/post-checkout; echo ../x > sub/commondir; echo '[core] pager = x' > other/config; touch sub/new.c other/new.txt")
	if b, _ := os.ReadFile(filepath.Join(dir, "build/config")); string(b) != "[core]\n" {
		t.Errorf("the common directory's config was changed: %q (%s)", b, res.Content)
	}
	if _, err := os.Stat(filepath.Join(dir, "build/hooks/post-checkout")); err == nil {
		t.Error("a hook was planted in the common directory")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "sub/commondir")); string(b) != "../build\n" {
		t.Errorf("sub/commondir was rewritten: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "other/config")); err == nil {
		t.Error("a config was planted in a git directory of the person's files")
	}
	for _, p := range []string{"sub/new.c", "other/new.txt"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("the person's folder was made read-only: %s: %v", p, err)
		}
	}
}

// TestConfigNamedPathsAreProtected: the files and folders a config names
// for git to read (an included file in the work tree, husky's hooks
// folder, a filter's script, the person's global hooksPath) cannot be
// changed by a command; one that does not exist yet is moved away when
// a command makes it, and the person told.
func TestConfigNamedPathsAreProtected(t *testing.T) {
	needBwrap(t)
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\thooksPath = .githooks\n"), 0o644)
	dir := project(t, map[string]string{
		".git/config":         "[include]\n\tpath = ../.gitconfig\n\tpath = ../.gitconfig.local\n",
		".gitconfig":          "[core]\n\tattributesFile = .attrs\n[filter \"x\"]\n\tclean = ./scripts/clean.sh\n",
		"scripts/clean.sh":    "#!/bin/sh\ncat\n",
		"lib/.git/config":     "[core]\n\thooksPath = .husky/_\n",
		"lib/.git/HEAD":       "ref: refs/heads/main\n",
		"lib/.husky/_/h":      "",
		"lib/.husky/other.sh": "",
	})
	env := append(os.Environ(), "HOME="+home)
	tool := New(dir, Options{Env: env})
	res := runIn(t, tool, "echo '[core] fsmonitor = x' >> .gitconfig; echo 'touch x' >> scripts/clean.sh; touch lib/.husky/_/pre-commit; touch lib/.husky/mine.sh; true")
	if b, _ := os.ReadFile(filepath.Join(dir, ".gitconfig")); strings.Contains(string(b), "fsmonitor") {
		t.Errorf("the included .gitconfig was changed (%s)", res.Content)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "scripts/clean.sh")); strings.Contains(string(b), "touch") {
		t.Error("the filter's script was changed")
	}
	if _, err := os.Stat(filepath.Join(dir, "lib/.husky/_/pre-commit")); err == nil {
		t.Error("a hook was planted in lib's core.hooksPath")
	}
	if _, err := os.Stat(filepath.Join(dir, "lib/.husky/mine.sh")); err != nil {
		t.Errorf("the folder beside the hooks was made read-only: %v", err)
	}
	if len(res.Alerts) != 0 {
		t.Errorf("alerts for a command that changed nothing git reads: %q", res.Alerts)
	}

	// Paths named but not there yet: made by the command, moved away.
	res = runIn(t, tool, "printf '[core]\\n\\tfsmonitor = x\\n' > .gitconfig.local && mkdir .githooks && touch .githooks/pre-commit .attrs")
	for _, p := range []string{".gitconfig.local", ".githooks", ".attrs"} {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s is still in the project", p)
		}
	}
	alerts := strings.Join(res.Alerts, "\n")
	for _, want := range []string{
		"created .gitconfig.local, which git reads settings or programs from (include.path in .git/config)",
		"created .githooks, which git reads settings or programs from (core.hookspath in " + filepath.Join(home, ".gitconfig") + ")",
		"created .attrs",
		"moved to .agent/quarantine/",
	} {
		if !strings.Contains(alerts, want) {
			t.Errorf("alerts %q\nlack %q", res.Alerts, want)
		}
	}
	if !strings.Contains(res.Message, "3 planted git files moved away") {
		t.Errorf("message %q", res.Message)
	}
	// Put away once: the next command is quiet.
	if res := runIn(t, tool, "true"); len(res.Alerts) != 0 {
		t.Errorf("alerts on a quiet command: %q", res.Alerts)
	}
}

// TestReplacedHooksFolderIsMovedAway: a folder that a config names and
// the sandbox mounts read-only can still be put aside with its parent
// and made again; the new one is moved away.
func TestReplacedHooksFolderIsMovedAway(t *testing.T) {
	needBwrap(t)
	dir := project(t, map[string]string{
		".git/config":    "[core]\n\thooksPath = .husky/_\n",
		".husky/_/.keep": "",
	})
	res := runIn(t, New(dir, Options{}), "mv .husky .old && mkdir -p .husky/_ && touch .husky/_/pre-commit")
	if _, err := os.Stat(filepath.Join(dir, ".husky/_/pre-commit")); err == nil {
		t.Fatalf("the planted hook is in place (%s; %q)", res.Content, res.Alerts)
	}
	if !strings.Contains(strings.Join(res.Alerts, "\n"), "replaced .husky/_, which git reads") {
		t.Errorf("alerts %q", res.Alerts)
	}
}

// TestConfigNeverMakesTheProjectReadOnly: a config naming the project
// folder (hooksPath = .) or a folder in a command (cd src) does not take
// the project from the command.
func TestConfigNeverMakesTheProjectReadOnly(t *testing.T) {
	needBwrap(t)
	dir := project(t, map[string]string{
		".git/config": "[core]\n\thooksPath = .\n[alias]\n\tx = \"!sh src/run.sh && cd src\"\n",
		"src/run.sh":  "",
	})
	res := runIn(t, New(dir, Options{}), "touch a.txt src/b.txt")
	if meta(res, "exit_code") != "0" {
		t.Fatalf("the command failed: %s\n%s", res.Message, res.Content)
	}
	if res := runIn(t, New(dir, Options{}), "echo x > src/run.sh"); meta(res, "exit_code") == "0" {
		t.Errorf("the alias's program was writable: %s", res.Content)
	}
}

package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// needGit fails under CI when git is missing, and skips elsewhere.
func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git not found: install the package git")
		}
		t.Skip("git not found")
	}
}

// gitStatusRuns runs the person's own `git status` in dir, outside the
// sandbox, and reports whether it ran the planted marker command.
func gitStatusRuns(t *testing.T, dir, marker string) bool {
	t.Helper()
	cmd := exec.Command("git", "status")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(filepath.Dir(dir)))
	cmd.Run() // failing is fine: "not a git repository" is the hoped-for answer
	_, err := os.Stat(marker)
	return err == nil
}

func TestPlantedRepositoryIsMovedAway(t *testing.T) {
	needBwrap(t)
	needGit(t)
	dir := project(t, map[string]string{"vendor/lib/a.go": "package lib\n"})
	marker := filepath.Join(t.TempDir(), "PWNED-marker")
	tool := New(dir, Options{})
	res := runIn(t, tool, "git init -q vendor/lib && git -C vendor/lib config core.fsmonitor 'touch "+marker+"'")
	if meta(res, "exit_code") != "0" {
		t.Fatalf("the command failed: %s\n%s", res.Message, res.Content)
	}
	if _, err := os.Lstat(filepath.Join(dir, "vendor/lib/.git")); err == nil {
		t.Fatalf("vendor/lib/.git is still in the project")
	}
	if gitStatusRuns(t, filepath.Join(dir, "vendor/lib"), marker) {
		t.Fatalf("git status ran the planted fsmonitor")
	}
	if len(res.Alerts) != 1 || !strings.Contains(res.Alerts[0], "vendor/lib/.git") || !strings.Contains(res.Alerts[0], "moved to .agent/quarantine/") {
		t.Fatalf("the person is not told: alerts %q", res.Alerts)
	}
	if !strings.Contains(res.Content, "vendor/lib/.git") || !strings.Contains(res.Message, "moved away") {
		t.Errorf("the model is not told: %s\n%s", res.Message, res.Content)
	}
	// Kept, not deleted: the config is in the quarantine, where git does
	// not look for it.
	to := res.Alerts[0][strings.Index(res.Alerts[0], ".agent/quarantine/"):]
	b, err := os.ReadFile(filepath.Join(dir, to, "config"))
	if err != nil || !strings.Contains(string(b), "fsmonitor") {
		t.Errorf("the quarantined repository lost its config: %v %q", err, b)
	}
	if filepath.Base(to) == ".git" {
		t.Errorf("quarantined under the name .git: %s", to)
	}
	// Nothing to report the next time.
	if res := runIn(t, tool, "true"); len(res.Alerts) != 0 {
		t.Errorf("alerts on a quiet command: %q", res.Alerts)
	}
}

func TestNestedRepositoriesAreReadOnly(t *testing.T) {
	needBwrap(t)
	files := map[string]string{
		".gitignore":                      "node_modules/\n",
		"node_modules/pkg/index.js":       "",
		"sub/.git":                        "gitdir: ../store/sub.git\n",
		"fixtures/bare.git/objects/.keep": "",
		"fixtures/bare.git/refs/.keep":    "",
	}
	repos := []string{"vendor/lib/.git", "node_modules/pkg/.git", "store/sub.git", "fixtures/bare.git"}
	for _, r := range repos {
		files[r+"/config"] = "[core]\n"
		files[r+"/HEAD"] = "ref: refs/heads/main\n"
		files[r+"/hooks/.keep"] = ""
	}
	dir := project(t, files)
	tool := New(dir, Options{})
	for _, p := range repos {
		res := runIn(t, tool, "echo '[core] fsmonitor = x' >> "+p+"/config; touch "+p+"/hooks/post-checkout")
		if b, _ := os.ReadFile(filepath.Join(dir, p, "config")); string(b) != "[core]\n" {
			t.Errorf("%s/config was changed: %q (%s)", p, b, res.Content)
		}
		if _, err := os.Stat(filepath.Join(dir, p, "hooks/post-checkout")); err == nil {
			t.Errorf("a hook was planted in %s", p)
		}
		if len(res.Alerts) != 0 {
			t.Errorf("%s: alerts %q for an existing repository", p, res.Alerts)
		}
	}
	// The .git file itself cannot be pointed elsewhere.
	runIn(t, tool, "echo 'gitdir: ../evil' > sub/.git")
	if b, _ := os.ReadFile(filepath.Join(dir, "sub/.git")); string(b) != "gitdir: ../store/sub.git\n" {
		t.Errorf("sub/.git was rewritten: %q", b)
	}
}

func TestPlantedGitFileAndBareRepositoryAreMovedAway(t *testing.T) {
	needBwrap(t)
	needGit(t)
	dir := project(t, map[string]string{"a/x.txt": "x\n"})
	marker := filepath.Join(t.TempDir(), "PWNED-marker")
	tool := New(dir, Options{})
	// A .git file pointing at a repository made in a writable folder.
	res := runIn(t, tool, "git init -q --bare store/evil.git && git --git-dir=store/evil.git config core.bare false && git --git-dir=store/evil.git config core.fsmonitor 'touch "+marker+"' && echo 'gitdir: ../store/evil.git' > a/.git")
	if meta(res, "exit_code") != "0" {
		t.Fatalf("the command failed: %s\n%s", res.Message, res.Content)
	}
	for _, p := range []string{"a/.git", "store/evil.git"} {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s is still in the project", p)
		}
		if !strings.Contains(strings.Join(res.Alerts, "\n"), p) {
			t.Errorf("the alerts do not name %s: %q", p, res.Alerts)
		}
	}
	if gitStatusRuns(t, filepath.Join(dir, "a"), marker) {
		t.Fatalf("git status ran the planted fsmonitor")
	}
}

// TestProjectFolderMadeABareRepository: without a .git, git takes a
// folder holding HEAD, objects/ and refs/ for a bare repository and reads
// its config; the markers a command made are moved away.
func TestProjectFolderMadeABareRepository(t *testing.T) {
	needBwrap(t)
	needGit(t)
	dir := filepath.Join(t.TempDir(), "proj")
	if err := os.MkdirAll(filepath.Join(dir, "objects"), 0o755); err != nil { // the person's own folder
		t.Fatal(err)
	}
	res := runIn(t, New(dir, Options{}), "mkdir -p refs/heads && echo 'ref: refs/heads/main' > HEAD && git config --file config core.pager 'touch /tmp/x; cat'")
	if meta(res, "exit_code") != "0" {
		t.Fatalf("the command failed: %s\n%s", res.Message, res.Content)
	}
	for _, p := range []string{"HEAD", "refs"} {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s is still in the project", p)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "objects")); err != nil {
		t.Errorf("the person's own objects/ was moved: %v", err)
	}
	if len(res.Alerts) != 2 || !strings.Contains(res.Alerts[0], "made the project folder a git repository") {
		t.Errorf("alerts %q", res.Alerts)
	}
	// What git sees there now: no repository.
	cmd := exec.Command("git", "rev-parse", "--git-dir")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("git still finds a repository: %s", out)
	}
}

// TestGuardTakesOnlyWhatTheCommandTouched: when the walk before a command
// stopped early, a repository found after it was perhaps there all along;
// it is moved only if the command made or changed it.
func TestGuardTakesOnlyWhatTheCommandTouched(t *testing.T) {
	dir := project(t, map[string]string{
		"old/.git/config":     "[core]\n",
		"old/.git/HEAD":       "ref: refs/heads/main\n",
		"touched/.git/HEAD":   "ref: refs/heads/main\n",
		"touched/.git/config": "[core]\n",
	})
	tool := New(dir, Options{})
	g := &gitGuard{root: tool.root, known: map[fileID]bool{}, before: repoScan{why: "stopped"}}
	// The command started after the files were made...
	time.Sleep(2 * ctimeSlack)
	g.start = time.Now()
	// ...and changed one repository's config in place.
	f, err := os.OpenFile(filepath.Join(dir, "touched/.git/config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\tfsmonitor = x\n")
	f.Close()
	rep := g.check(time.Second)
	if len(rep.moved) != 1 || rep.moved[0].rel != "touched/.git" || !rep.moved[0].unsure || rep.moved[0].err != nil {
		t.Fatalf("moved %+v, want touched/.git alone", rep.moved)
	}
	if _, err := os.Stat(filepath.Join(dir, "old/.git/config")); err != nil {
		t.Errorf("an untouched repository was moved: %v", err)
	}
	_, alerts := rep.render(commandSubject)
	if len(alerts) != 1 || !strings.Contains(alerts[0], "created or changed touched/.git") {
		t.Errorf("alerts %q", alerts)
	}
}

// TestQuarantineNeverLeavesTheProject: a cloned project may ship
// .agent/quarantine as a link (to ~/.bashrc.d, whose files a shell
// sources) or as a file; a planted repository is then renamed where it
// is, never moved through the link, and the alert says so.
func TestQuarantineNeverLeavesTheProject(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir, outside string)
		why   string
	}{
		{"linked quarantine", func(t *testing.T, dir, outside string) {
			os.MkdirAll(filepath.Join(dir, ".agent"), 0o755)
			if err := os.Symlink(outside, filepath.Join(dir, ".agent/quarantine")); err != nil {
				t.Fatal(err)
			}
		}, ".agent/quarantine is a symlink"},
		{"quarantine is a file", func(t *testing.T, dir, outside string) {
			os.MkdirAll(filepath.Join(dir, ".agent"), 0o755)
			os.WriteFile(filepath.Join(dir, ".agent/quarantine"), nil, 0o644)
		}, ".agent/quarantine is not a folder"},
		{"linked .agent", func(t *testing.T, dir, outside string) {
			if err := os.Symlink(outside, filepath.Join(dir, ".agent")); err != nil {
				t.Fatal(err)
			}
		}, ".agent is a symlink"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := project(t, map[string]string{"docs/a.md": ""})
			outside := t.TempDir()
			tc.setup(t, dir, outside)
			g := New(dir, Options{}).guardGit()
			// What the command plants: a .git file holding shell code.
			os.WriteFile(filepath.Join(dir, "docs/.git"), []byte("touch /tmp/x # gitdir: nowhere\n"), 0o644)
			rep := g.check(time.Second)
			if len(rep.moved) != 1 || rep.moved[0].err != nil {
				t.Fatalf("moved %+v", rep.moved)
			}
			if ents, _ := os.ReadDir(outside); len(ents) != 0 {
				t.Fatalf("moved out of the project: %v", ents)
			}
			m := rep.moved[0]
			if !strings.HasPrefix(m.to, "docs/.git.quarantined-") {
				t.Errorf("renamed to %q, want beside itself", m.to)
			}
			if _, err := os.Lstat(filepath.Join(dir, m.to)); err != nil {
				t.Errorf("the renamed repository is not there: %v", err)
			}
			_, alerts := rep.render(commandSubject)
			if len(alerts) != 1 || !strings.Contains(alerts[0], "renamed to "+m.to) || !strings.Contains(alerts[0], tc.why) || strings.Contains(alerts[0], "moved to") {
				t.Errorf("alerts %q", alerts)
			}
		})
	}
}

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n    int
		what string
		want string
	}{
		{1, "planted git repository", "1 planted git repository"},
		{3, "planted git repository", "3 planted git repositories"},
		{2, "project file", "2 project files"},
		{2, "key", "2 keys"},
	} {
		if got := plural(tc.n, tc.what); got != tc.want {
			t.Errorf("plural(%d, %q) = %q, want %q", tc.n, tc.what, got, tc.want)
		}
	}
}

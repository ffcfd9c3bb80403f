package gitcommit

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
)

// gitPath is the git these tests commit with; under CI it must exist.
func gitPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is missing")
		}
		t.Skip("git is not installed")
	}
	return p
}

// repo is a repository with a.txt and b.txt committed, the user's
// identity in its own config, and no global configuration.
func repo(t *testing.T) string {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "config", "user.name", "Test")
	git(t, dir, "config", "user.email", "test@example.invalid")
	write(t, dir, "a.txt", "a1\n")
	write(t, dir, "b.txt", "b1\n")
	git(t, dir, "add", "a.txt", "b.txt")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(gitPath(t), args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
}

// call previews and then runs one git_commit call, as the loop does
// after a person's yes.
func call(t *testing.T, tool *Tool, args map[string]string) (tools.Preview, tools.Result) {
	t.Helper()
	reg := tools.NewRegistry(tool)
	_, in, bad := reg.Validate(Name, args)
	if bad != nil {
		t.Fatalf("validate: %s", bad.Message)
	}
	in.CallID = "1"
	ctx := tools.WithInfo(t.Context(), tools.CallInfo{CallID: "1"})
	pv, res, err := tool.Preview(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if res != nil {
		return pv, *res
	}
	out, err := reg.Execute(ctx, tool, in)
	if err != nil {
		t.Fatal(err)
	}
	return pv, out
}

// TestCommitsNamedPaths: exactly the named paths (a changed file and a
// new one) are committed with the message; another change, and what the
// user staged of it, stay as they were; the question showed that.
func TestCommitsNamedPaths(t *testing.T) {
	dir := repo(t)
	write(t, dir, "a.txt", "a2\n")
	write(t, dir, "b.txt", "b2\n")
	git(t, dir, "add", "b.txt") // the user's own staging
	write(t, dir, "new dir/c.txt", "c1\n")
	tool := New(dir, Options{Git: gitPath(t)})
	if !tool.Definition().NeverAutoApproved {
		t.Fatal("git_commit is auto-approvable without git.auto_commit")
	}
	pv, res := call(t, tool, map[string]string{"message": "Change a, add c\n\nWhy: tests.", "paths": "a.txt\nnew dir/c.txt"})
	if res.IsError() {
		t.Fatalf("commit failed: %s %s", res.Code, res.Message)
	}
	shown := strings.Join(pv.Lines, "\n")
	for _, want := range []string{"changed a.txt (+1 -1)", "added new dir/c.txt (+1)", "2 files changed, 2 insertions(+), 1 deletion(-)", "Change a, add c", "Why: tests."} {
		if !strings.Contains(shown, want) {
			t.Errorf("question lacks %q:\n%s", want, shown)
		}
	}
	if strings.Contains(shown, "b.txt") {
		t.Errorf("question shows b.txt, which is not committed:\n%s", shown)
	}
	if msg := git(t, dir, "log", "-1", "--format=%B"); msg != "Change a, add c\n\nWhy: tests." {
		t.Errorf("message = %q", msg)
	}
	if files := git(t, dir, "show", "--name-only", "--format=", "HEAD"); files != "a.txt\nnew dir/c.txt" {
		t.Errorf("committed %q", files)
	}
	id := git(t, dir, "rev-parse", "HEAD")
	if !strings.Contains(res.Message, id[:12]) || !strings.Contains(res.Content, "/undo does not undo a commit") {
		t.Errorf("result = %q / %q", res.Message, res.Content)
	}
	if st := git(t, dir, "status", "--porcelain"); st != "M  b.txt" {
		t.Errorf("status after the commit = %q, want only the user's staged b.txt", st)
	}
}

// TestCommitsTrackedChanges: no paths commits every change to a file git
// tracks, not a new file.
func TestCommitsTrackedChanges(t *testing.T) {
	dir := repo(t)
	write(t, dir, "a.txt", "a2\n")
	os.Remove(filepath.Join(dir, "b.txt"))
	write(t, dir, "untracked.txt", "u\n")
	_, res := call(t, New(dir, Options{Git: gitPath(t)}), map[string]string{"message": "Tracked changes"})
	if res.IsError() {
		t.Fatalf("commit failed: %s %s", res.Code, res.Message)
	}
	if got := git(t, dir, "show", "--name-status", "--format=", "HEAD"); got != "M\ta.txt\nD\tb.txt" {
		t.Errorf("committed %q", got)
	}
	if st := git(t, dir, "status", "--porcelain"); st != "?? untracked.txt" {
		t.Errorf("status = %q", st)
	}
}

// TestRepositoryProgramsDoNotRun: a planted pre-commit (and post-commit)
// hook, a core.fsmonitor program and a clean filter in the repository's
// own configuration run nothing; with git.hooks the hook runs, so the
// markers can be written when a program does run.
func TestRepositoryProgramsDoNotRun(t *testing.T) {
	dir := repo(t)
	marks := t.TempDir()
	for _, h := range []string{"pre-commit", "post-commit", "commit-msg", "post-index-change", "reference-transaction"} {
		write(t, dir, ".git/hooks/"+h, "#!/bin/sh\ntouch "+filepath.Join(marks, h)+"\n")
	}
	monitor := filepath.Join(marks, "fsmonitor")
	git(t, dir, "config", "core.fsmonitor", "touch "+monitor+"; true")
	git(t, dir, "config", "filter.evil.clean", "touch "+filepath.Join(marks, "filter")+"; cat")
	git(t, dir, "config", "filter.evil.required", "true")
	write(t, dir, ".gitattributes", "*.txt filter=evil\n")
	write(t, dir, "a.txt", "a2\n")
	_, res := call(t, New(dir, Options{Git: gitPath(t)}), map[string]string{"message": "Quietly", "paths": "a.txt .gitattributes"})
	if res.IsError() {
		t.Fatalf("commit failed: %s %s", res.Code, res.Message)
	}
	if ents, _ := os.ReadDir(marks); len(ents) > 0 {
		var ran []string
		for _, e := range ents {
			ran = append(ran, e.Name())
		}
		t.Errorf("the repository's programs ran: %v", ran)
	}
	if got := git(t, dir, "log", "-1", "--format=%s"); got != "Quietly" {
		t.Errorf("last commit %q", got)
	}

	// The user's git.hooks = true lets the hooks run.
	git(t, dir, "config", "--unset", "core.fsmonitor")
	write(t, dir, "a.txt", "a3\n")
	_, res = call(t, New(dir, Options{Git: gitPath(t), Hooks: true}), map[string]string{"message": "With hooks", "paths": "a.txt"})
	if res.IsError() {
		t.Fatalf("commit failed: %s %s", res.Code, res.Message)
	}
	if _, err := os.Stat(filepath.Join(marks, "pre-commit")); err != nil {
		t.Errorf("with git.hooks the pre-commit hook did not run: %v", err)
	}
}

// TestRefusedCalls: what cannot be committed is answered before anyone
// is asked, and a change after the question refuses the commit.
func TestRefusedCalls(t *testing.T) {
	dir := repo(t)
	tool := New(dir, Options{Git: gitPath(t)})
	for _, c := range []struct {
		name, paths, code string
	}{
		{"nothing changed", "a.txt", tools.CodeNoMatch},
		{"outside", "../x", tools.CodePathOutsideRoot},
		{"git folder", ".git/config", tools.CodePolicyDenied},
		{"missing", "nope.txt", tools.CodeProviderError},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, res := call(t, tool, map[string]string{"message": "m", "paths": c.paths})
			if res.Code != c.code {
				t.Errorf("%s: %s %s, want %s", c.paths, res.Code, res.Message, c.code)
			}
		})
	}
	if n := git(t, dir, "rev-list", "--count", "HEAD"); n != "1" {
		t.Errorf("%s commits, want 1", n)
	}

	// A path whose name says it holds secrets is never named in a commit.
	write(t, dir, ".env", "KEY=secret\n")
	secretTool := New(dir, Options{Git: gitPath(t), Secret: func(p string) bool { return filepath.Base(p) == ".env" }})
	if _, res := call(t, secretTool, map[string]string{"message": "m", "paths": "a.txt .env"}); res.Code != tools.CodePolicyDenied || !strings.Contains(res.Message, "secrets") {
		t.Errorf(".env named: %s %s, want TOOL_POLICY_DENIED", res.Code, res.Message)
	}
	if n := git(t, dir, "rev-list", "--count", "HEAD"); n != "1" {
		t.Errorf("%s commits after the refusal, want 1", n)
	}

	// Shown one content, then the file changed: not committed.
	write(t, dir, "a.txt", "shown\n")
	reg := tools.NewRegistry(tool)
	_, in, _ := reg.Validate(Name, map[string]string{"message": "m", "paths": "a.txt"})
	in.CallID = "7"
	ctx := tools.WithInfo(t.Context(), tools.CallInfo{CallID: "7"})
	if _, bad, err := tool.Preview(ctx, in); err != nil || bad != nil {
		t.Fatalf("preview: %v %v", err, bad)
	}
	write(t, dir, "a.txt", "changed after\n")
	res, err := reg.Execute(ctx, tool, in)
	if err != nil || res.Code != tools.CodeFileStale {
		t.Errorf("commit after a change = %v %s %s, want FILE_STALE", err, res.Code, res.Message)
	}
}

// TestQuestionNamesTheRepository: the question says which repository
// the commit goes into, its top folder, even when it is the project's.
func TestQuestionNamesTheRepository(t *testing.T) {
	dir := repo(t)
	write(t, dir, "a.txt", "a2\n")
	pv, res := call(t, New(dir, Options{Git: gitPath(t)}), map[string]string{"message": "m", "paths": "a.txt"})
	if res.IsError() {
		t.Fatalf("commit failed: %s %s", res.Code, res.Message)
	}
	top, _ := filepath.EvalSymlinks(dir)
	if !slices.Contains(pv.Lines, "repository: "+top) {
		t.Errorf("the question does not name the repository %s:\n%s", top, strings.Join(pv.Lines, "\n"))
	}
}

// TestGitEntryPointingElsewhereIsRefused: a project whose .git is a file
// or a link to another repository (as a download may ship it) is not
// committed into that repository.
func TestGitEntryPointingElsewhereIsRefused(t *testing.T) {
	other := repo(t) // the person's other repository
	for _, plant := range []func(dir string) error{
		func(dir string) error {
			return os.WriteFile(filepath.Join(dir, ".git"), []byte("gitdir: "+filepath.Join(other, ".git")+"\n"), 0o644)
		},
		func(dir string) error { return os.Symlink(filepath.Join(other, ".git"), filepath.Join(dir, ".git")) },
	} {
		dir := t.TempDir()
		write(t, dir, "a.txt", "from the download\n")
		if err := plant(dir); err != nil {
			t.Fatal(err)
		}
		_, res := call(t, New(dir, Options{Git: gitPath(t)}), map[string]string{"message": "m", "paths": "a.txt"})
		if res.Code != tools.CodePolicyDenied || !strings.Contains(res.Message, "outside") {
			t.Errorf("a .git pointing at %s: %s %s, want TOOL_POLICY_DENIED", other, res.Code, res.Message)
		}
	}
	if n := git(t, other, "rev-list", "--count", "HEAD"); n != "1" {
		t.Errorf("the other repository has %s commits, want 1", n)
	}
}

// TestLinkedWorktreeAndSubmoduleCommit: git's own ways of keeping a git
// directory elsewhere, which name the work tree back, still commit; the
// question shows where the git directory is.
func TestLinkedWorktreeAndSubmoduleCommit(t *testing.T) {
	main := repo(t)
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, main, "worktree", "add", "-q", "-b", "side", wt)
	super := repo(t)
	git(t, super, "-c", "protocol.file.allow=always", "submodule", "--quiet", "add", main, "sub")
	git(t, super, "commit", "-q", "-m", "add sub")
	sub := filepath.Join(super, "sub")
	git(t, sub, "config", "user.name", "Test")
	git(t, sub, "config", "user.email", "test@example.invalid")
	for _, dir := range []string{wt, sub} {
		write(t, dir, "a.txt", "changed in "+filepath.Base(dir)+"\n")
		pv, res := call(t, New(dir, Options{Git: gitPath(t)}), map[string]string{"message": "in " + filepath.Base(dir), "paths": "a.txt"})
		if res.IsError() {
			t.Errorf("%s: %s %s", dir, res.Code, res.Message)
			continue
		}
		if !slices.ContainsFunc(pv.Lines, func(l string) bool { return strings.HasPrefix(l, "git directory: ") }) {
			t.Errorf("%s: the question does not say where the git directory is:\n%s", dir, strings.Join(pv.Lines, "\n"))
		}
		if got := git(t, dir, "log", "-1", "--format=%s"); got != "in "+filepath.Base(dir) {
			t.Errorf("%s: last commit %q", dir, got)
		}
	}
}

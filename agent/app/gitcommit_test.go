package app

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/gitcommit"
	"github.com/agentcli/agent/tools/programs"
)

// gitRepo is a project in a git repository with a.txt committed and then
// changed, and b.txt changed too.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is missing")
		}
		t.Skip("git is not installed")
	}
	t.Setenv("HOME", t.TempDir()) // no global git configuration
	dir := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q")
	run("config", "user.name", "Test")
	run("config", "user.email", "test@example.invalid")
	writeTestFile(t, filepath.Join(dir, "a.txt"), "a1\n")
	writeTestFile(t, filepath.Join(dir, "b.txt"), "b1\n")
	run("add", "a.txt", "b.txt")
	run("commit", "-q", "-m", "first")
	writeTestFile(t, filepath.Join(dir, "a.txt"), "a2\n")
	writeTestFile(t, filepath.Join(dir, "b.txt"), "b2\n")
	return dir
}

func commits(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("git", "log", "--format=%s", "--name-only")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// gitBuilder is the test Builder finding programs on PATH, outside the
// project, as the agent does.
func gitBuilder() *Builder {
	b := testBuilder()
	b.Programs = func(root string, cfg config.Config) *programs.Resolver {
		return programs.New(programs.Options{Path: os.Getenv("PATH"), Untrusted: []programs.Place{{Dir: root, What: "inside the project"}}, Fixed: cfg.Programs})
	}
	return b
}

const commitA = `<tool_call name="git_commit" id="1"><message>Update a</message><paths>a.txt</paths></tool_call>`

// TestGitCommitAfterYes: under the auto policy (agent run --yes) a
// commit is still put to the person, with what it holds and the
// message; after their yes exactly a.txt is committed.
func TestGitCommitAfterYes(t *testing.T) {
	dir := gitRepo(t)
	c, err := gitBuilder().New(t.Context(), conversation.Options{Dir: dir, Model: llmtest.Texts(commitA, "done"), Policy: agent.PolicyAuto})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var asked []agent.Question
	c.SetAsker(agent.AskFunc(func(_ context.Context, q agent.Question) (agent.Answer, error) {
		asked = append(asked, q)
		return agent.Answer{Decision: agent.Allow}, nil
	}), "")
	out := say(t, c, "commit a")
	if len(asked) != 1 {
		t.Fatalf("asked %d times, want once", len(asked))
	}
	shown := strings.Join(asked[0].Preview.Lines, "\n")
	if !strings.Contains(shown, "changed a.txt (+1 -1)") || !strings.Contains(shown, "Update a") || strings.Contains(shown, "b.txt") {
		t.Errorf("the question showed:\n%s", shown)
	}
	if got := codes(out); got != "" {
		t.Fatalf("codes %q: %+v", got, out.Calls)
	}
	if got := commits(t, dir); got != "Update a\n\na.txt\nfirst\n\na.txt\nb.txt" {
		t.Errorf("log = %q", got)
	}
}

// TestGitCommitNotByYes: with nobody to ask, --yes (auto) and an allow
// rule do not commit; the user's git.auto_commit does.
func TestGitCommitNotByYes(t *testing.T) {
	dir := gitRepo(t)
	c, err := gitBuilder().New(t.Context(), conversation.Options{Dir: dir, Model: llmtest.Texts(commitA, "done"), Policy: agent.PolicyAuto})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetAsker(nil, "rerun with --yes")
	out := say(t, c, "commit a")
	if got := codes(out); got != tools.CodePolicyDenied || out.Calls[0].DecidedBy != "consent" {
		t.Errorf("call = %+v, want refused by consent", out.Calls)
	}
	if strings.Contains(out.Calls[0].Result.Message, "--yes to") {
		t.Errorf("the refusal suggests --yes: %s", out.Calls[0].Result.Message)
	}
	if got := commits(t, dir); got != "first\n\na.txt\nb.txt" {
		t.Errorf("committed without a person: %q", got)
	}

	b := gitBuilder()
	b.LocalConfig = func(string) (config.Config, error) {
		cfg := config.Defaults()
		cfg.Git.AutoCommit = true
		return cfg, nil
	}
	c2, err := b.New(t.Context(), conversation.Options{Dir: dir, Model: llmtest.Texts(commitA, "done"), Policy: agent.PolicyAuto})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if tool, _ := c2.Tools().Lookup(gitcommit.Name); tool == nil || tool.Definition().NeverAutoApproved {
		t.Fatal("git.auto_commit did not make git_commit approvable")
	}
	out = say(t, c2, "commit a")
	if got := codes(out); got != "" || out.Calls[0].DecidedBy != "policy" {
		t.Errorf("with git.auto_commit: %+v", out.Calls)
	}
	if got := commits(t, dir); !strings.HasPrefix(got, "Update a\n\na.txt\n") {
		t.Errorf("log = %q", got)
	}
}

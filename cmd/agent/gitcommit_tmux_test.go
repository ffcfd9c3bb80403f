package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// TestChatTmuxGitCommit: in the chat, a commit is put to the person with
// what it holds and its message, "always" is not remembered, and after a
// yes exactly the named path is committed.
func TestChatTmuxGitCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is missing (.ci/run installs it)")
		}
		t.Skip("git is not installed")
	}
	commit := llmtest.Say(`<tool_call name="git_commit"><message>Update a

Because the test says so.</message><paths>a.txt</paths></tool_call>`)
	// The repository is made before the chat starts: git_commit is
	// offered only in one.
	setup := "git init -q && git config user.name Test && git config user.email test@example.invalid && " +
		"echo a1 > a.txt && echo b1 > b.txt && git add a.txt b.txt && git commit -q -m first && " +
		"echo a2 > a.txt && echo b2 > b.txt && exec "
	c := startTmux(t, tmuxOptions{width: 90, height: 30,
		answers: []llmtest.Answer{commit, llmtest.Say("Committed."), commit, llmtest.Say("Not committed.")},
		env:     []string{"NO_COLOR=1", "EDITOR=true"},
		command: func(bin string) []string { return []string{"sh", "-c", setup + bin} }})
	c.waitPrompt()
	c.typeLine("commit a")
	s := c.waitFor("the question", "Allow git_commit?")
	for _, want := range []string{"commit 1 file: Update a", "changed a.txt (+1 -1)", "1 file changed, 1 insertion(+), 1 deletion(-)", "Because the test says so.", "/undo does not undo a commit", "not remembered"} {
		if !strings.Contains(s, want) {
			t.Errorf("question lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "b.txt") {
		t.Errorf("question shows b.txt:\n%s", s)
	}
	c.keys("y")
	c.waitFor("the answer", "Committed.")
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = c.proj
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := git("show", "--name-only", "--format=%s", "HEAD"); got != "Update a\n\na.txt" {
		t.Errorf("commit = %q", got)
	}
	if got := git("status", "--porcelain", "--untracked-files=no"); got != "M b.txt" {
		t.Errorf("status = %q, want b.txt alone changed", got)
	}
	c.write("a.txt", "a3\n")
	c.typeLine("again")
	c.waitFor("the second question", "Allow git_commit?")
	c.keys("n")
	c.waitFor("the answer", "Not committed.")
	if got := git("rev-list", "--count", "HEAD"); got != "2" {
		t.Errorf("%s commits after a no, want 2", got)
	}
}

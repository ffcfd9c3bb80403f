package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/internal/taskproject"
)

// firstRequestBudget is the most bytes the first request of the
// read-then-answer task may take, every default tool included: the
// figure the peers are compared on (the budgets issue).
const firstRequestBudget = 8192

// TestFirstRequestBudget: the first request of `agent run "what does
// this project do?"` in the 31-file project, through the Gemini SDK with
// every tool that is on by default (run_command needs bubblewrap), stays
// within firstRequestBudget bytes.
func TestFirstRequestBudget(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bubblewrap is not installed; CI must have it")
		}
		t.Skip("bubblewrap is not installed, so run_command would be missing from the catalog")
	}
	dir := t.TempDir()
	if err := taskproject.Write(dir); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewGeminiServer(t, llmtest.Say("It is a small Go service that greets people."))
	var out, errOut bytes.Buffer
	d := newFactory(&streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	d.env = map[string]string{"HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir(), "PATH": os.Getenv("PATH")}
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		d.env[k] = v
	}
	root := newRootCmd(d)
	root.SetArgs([]string{"run", "--dir", dir, "what does this project do?"})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("agent run: %v\n%s", err, errOut.String())
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the model")
	}
	body := reqs[0].Body
	t.Logf("first request: %d bytes", len(body))
	if !bytes.Contains(body, []byte("## run_command")) || !bytes.Contains(body, []byte("## write_file")) {
		t.Fatalf("the first request lacks the default tools:\n%s", body)
	}
	if len(body) > firstRequestBudget {
		t.Errorf("the first request is %d bytes, over the budget of %d (see agent prompt --stats for where they go)", len(body), firstRequestBudget)
	}
}

package run

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
)

// TestRunApprovalNamesTheAgent: agent run's terminal question about a
// sub-agent's write says which agent asks, before the preview and in the
// question itself.
func TestRunApprovalNamesTheAgent(t *testing.T) {
	var shown bytes.Buffer
	ask := &TerminalAsker{in: strings.NewReader("y\n"), out: &shown}
	q := agent.Question{
		Call:    xmlcall.Call{ID: "1", Name: "write_file", Params: []xmlcall.Param{{Name: "file_path", Value: "notes.md"}}},
		Tool:    tools.Definition{Name: "write_file"},
		Preview: tools.Preview{Summary: "create notes.md"},
		Agent:   "reviewer",
	}
	a, err := ask.Ask(context.Background(), q)
	if err != nil || a.Decision != agent.Allow {
		t.Fatalf("answer %v, %v", a, err)
	}
	got := shown.String()
	for _, want := range []string{"agent reviewer asks:\ncreate notes.md", " by agent reviewer? [y/N/a]"} {
		if !strings.Contains(got, want) {
			t.Errorf("the question lacks %q:\n%s", want, got)
		}
	}
}

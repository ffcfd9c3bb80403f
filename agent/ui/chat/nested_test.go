package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
)

// TestNestedShownUnderCard: the explorer's calls show as the running
// line of its card, and its tokens count in the status line's usage.
func TestNestedShownUnderCard(t *testing.T) {
	m := New(context.Background(), Options{Conversation: newTestConv(t), Width: 100})
	m.resize(100, 40)
	m.run, m.running = 1, true
	m.cards = map[string]*card{}
	m.md = newMarkdown(&m.st, m.width)
	call := &xmlcall.Call{ID: "1", Name: "explore", Params: []xmlcall.Param{{Name: "task", Value: "look"}}}
	send := func(e agent.Event) { m.Update(eventMsg{run: 1, event: e}) }
	send(agent.Event{Type: agent.EventCall, Iteration: 1, Call: call})
	send(agent.Event{Type: agent.EventNested, Iteration: 1, Call: call, Nested: &agent.Event{Type: agent.EventUsage, Usage: &llm.Usage{InputTokens: 700, OutputTokens: 30}}})
	send(agent.Event{Type: agent.EventNested, Iteration: 1, Call: call, Nested: &agent.Event{Type: agent.EventResult, Result: &agent.CallResult{
		ID: "1", Tool: "read_file", Params: []xmlcall.Param{{Name: "file_path", Value: "retry/b.go"}}}}})
	if got := m.cards["1"].output; got != "↳ ✓ read_file retry/b.go" {
		t.Errorf("card line = %q", got)
	}
	send(agent.Event{Type: agent.EventNested, Iteration: 1, Call: call, Nested: &agent.Event{Type: agent.EventResult, Result: &agent.CallResult{
		ID: "2", Tool: "write_file", Result: tools.Result{Code: tools.CodePolicyDenied}}}})
	if got := m.cards["1"].output; !strings.HasPrefix(got, "↳ ✗ TOOL_POLICY_DENIED write_file") {
		t.Errorf("card line = %q", got)
	}
	if m.info.TokensIn != 700 || m.info.TokensOut != 30 {
		t.Errorf("tokens = %d in, %d out; want the explorer's 700 and 30", m.info.TokensIn, m.info.TokensOut)
	}
	if len(m.cards) != 1 {
		t.Errorf("the explorer's calls got cards of their own: %d cards", len(m.cards))
	}
}

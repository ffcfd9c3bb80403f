package agent_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm/anthropic"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// Through a whole run against the fake Anthropic API: every request marks
// the system prompt and its latest turn for caching, and the cache counts
// the server reports reach the outcome that json output prints.
func TestAnthropicCacheThroughARun(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte(sixKB("a.txt")), 0o644); err != nil {
		t.Fatal(err)
	}
	s := llmtest.NewAnthropicServer(t,
		llmtest.Say(readCall("a.txt")).WithUsage(2000, 20).WithCache(0, 1900),
		llmtest.Say("It is a list of lines.").WithUsage(3700, 8).WithCache(1900, 1750),
	)
	model, err := anthropic.New(anthropic.Options{Model: "claude-test", APIKey: "k", BaseURL: s.URL})
	if err != nil {
		t.Fatal(err)
	}
	g := &guardTools{root: root, read: map[string]string{}}
	a := &agent.Agent{
		Model: model, Tools: g.registry(), Session: agent.NewSession(root), System: systemPrompt,
		Approval: agent.NewApproval(agent.PolicyAuto), Budget: &agent.Budget{Window: 200000, Reads: g},
	}
	defer a.Session.Close()
	out, err := a.Run(t.Context(), "What is in a.txt?", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range s.Requests() {
		want := []string{"system", "messages[" + string(rune('0'+len(r.Messages)-1)) + "]"}
		if !slices.Equal(r.CacheBreakpoints, want) {
			t.Errorf("request %d: breakpoints %v, want %v", i+1, r.CacheBreakpoints, want)
		}
	}
	b, _ := json.Marshal(out)
	for _, want := range []string{`"cached_tokens":1900`, `"cache_write_tokens":3650`, `"input_tokens":5700`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("outcome JSON %s lacks %s", b, want)
		}
	}
}

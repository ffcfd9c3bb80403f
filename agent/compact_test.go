package agent_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/agent/llm/openai"
)

// conversation is a scripted conversation of turns tool calls, each
// reading one of five 6 KB files, then an answer, against a fake OpenAI
// server; window 0 runs it with no budget.
type conversation struct {
	root    string
	server  *llmtest.Server
	agent   *agent.Agent
	events  []agent.Event
	answers int
}

func newConversation(t testing.TB, turns, window int) *conversation {
	t.Helper()
	root := t.TempDir()
	for i := 1; i <= 5; i++ {
		n := fmt.Sprintf("f%d.txt", i)
		if err := os.WriteFile(filepath.Join(root, n), []byte(sixKB(n)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var answers []llmtest.Answer
	for i := range turns {
		answers = append(answers, llmtest.Say(fmt.Sprintf("Turn %d: I need the next file.\n", i+1)+readCall(fmt.Sprintf("f%d.txt", i%5+1))))
	}
	answers = append(answers, llmtest.Say("Done: every file was read."))
	s := llmtest.NewOpenAIServer(t, answers...)
	s.CountPrompt(func(r llmtest.Request) int { return len(r.Text()) / bytesPerToken })
	s.Intercept(summaries)
	model, err := openai.New(openai.Options{Model: "gpt-test", BaseURL: s.URL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	g := &guardTools{root: root, read: map[string]string{}}
	a := &agent.Agent{
		Model: model, Tools: g.registry(), Session: agent.NewSession(root), System: systemPrompt,
		Approval: agent.NewApproval(agent.PolicyAuto), MaxIterations: turns + 5,
	}
	if window > 0 {
		a.Budget = &agent.Budget{Window: window, Reads: g}
	}
	return &conversation{root: root, server: s, agent: a, answers: len(answers)}
}

func (c *conversation) run(t testing.TB, prompt string) (*agent.Outcome, error) {
	return c.agent.Run(t.Context(), prompt, func(ev agent.Event) { c.events = append(c.events, ev) })
}

func TestCompactionKeepsALongConversationInTheWindow(t *testing.T) {
	const window = 8000
	c := newConversation(t, 40, window)
	defer c.agent.Session.Close()
	out, err := c.run(t, "Read the files one by one, forty times.")
	if err != nil {
		t.Fatal(err)
	}
	if out.Answer != "Done: every file was read." {
		t.Errorf("answer %q", out.Answer)
	}
	limit := window - agent.DefaultReserve(window)
	var summaries int
	for i, r := range c.server.Requests() {
		if n := len(r.Text()) / bytesPerToken; n > limit {
			t.Errorf("request %d: %d tokens at %d bytes a token, over %d", i+1, n, bytesPerToken, limit)
		}
		if r.System != systemPrompt {
			t.Errorf("request %d: the system prompt changed", i+1)
		}
		if !strings.Contains(r.LastUser(), "write a summary that will replace everything above") {
			continue
		}
		summaries++
		// A well-formed summary request: turns alternate from a user
		// turn to the closing user turn, which asks for the summary and
		// nothing else, with a bounded reply.
		for j, m := range r.Messages {
			if want := []llm.Role{llm.User, llm.Assistant}[j%2]; m.Role != want {
				t.Errorf("summary request %d: message %d is %s, want %s", i+1, j, m.Role, want)
			}
		}
		if !strings.HasSuffix(r.LastUser(), "this reply is only the summary.]") {
			t.Errorf("summary request %d does not end with the request for a summary", i+1)
		}
		if r.MaxTokens <= 0 || r.MaxTokens > 2048 {
			t.Errorf("summary request %d: max_tokens %d", i+1, r.MaxTokens)
		}
	}
	var compacts int
	for _, ev := range c.events {
		if ev.Type == agent.EventCompact {
			compacts++
		}
	}
	if summaries == 0 || compacts != summaries {
		t.Fatalf("%d summary requests, %d compact events; want at least one, as many of each", summaries, compacts)
	}
	if got := c.server.Remaining(); got != 0 {
		t.Errorf("%d scripted answers unused", got)
	}

	// The log keeps every message and marks the compaction; a continued
	// session starts from the summary.
	log := c.agent.Session.Path()
	live := c.agent.Session.Messages()
	c.agent.Session.Close()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), `"type":"message"`); n < 81 {
		t.Errorf("the log has %d messages, want all 81 (task, 40 calls, 40 results... and the answer)", n)
	}
	if n := strings.Count(string(data), `"type":"compact"`); n != compacts {
		t.Errorf("the log marks %d compactions, want %d", n, compacts)
	}
	s, err := agent.OpenSession(c.root, c.agent.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	msgs := s.Messages()
	if !strings.Contains(msgs[0].Text, "The user asked to read twelve files") || msgs[0].Role != llm.User {
		t.Fatalf("the continued session starts with %.200q, want the summary", msgs[0].Text)
	}
	if len(msgs) != len(live) || msgs[len(msgs)-1].Text != live[len(live)-1].Text {
		t.Errorf("the continued session has %d messages, the live one had %d: the compacted turns came back", len(msgs), len(live))
	}
	c.server.Push(llmtest.Say("Still done."))
	c.agent.Session = s
	if _, err := c.run(t, "Anything left?"); err != nil {
		t.Fatal(err)
	}
	reqs := c.server.Requests()
	last := reqs[len(reqs)-1]
	if !strings.Contains(last.Messages[0].Text, "The user asked to read twelve files") {
		t.Errorf("the request after --continue starts with %.200q, want the summary", last.Messages[0].Text)
	}
	if !strings.HasSuffix(last.LastUser(), "Anything left?") {
		t.Errorf("the new prompt is not the last turn: %.200q", last.LastUser())
	}
}

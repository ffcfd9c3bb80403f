package agent_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/agent/llm/ollama"
)

// A model trained for 2,048 tokens would have its system prompt cut from
// the front; the run must refuse in one line instead, saying what would
// help, and send nothing.
func TestSmallOllamaWindowRefusedInOneLine(t *testing.T) {
	s := llmtest.NewOllamaServer(t, []llmtest.OllamaModel{{Name: "qwen3:latest", Max: 2048}}, llmtest.Say("never sent"))
	model, err := ollama.New(ollama.Options{Model: "qwen3", BaseURL: s.URL})
	if err != nil {
		t.Fatal(err)
	}
	w := model.Window(t.Context(), 20000)
	root := t.TempDir()
	g := &guardTools{root: root, read: map[string]string{}}
	a := &agent.Agent{
		Model: model, Tools: g.registry(), Session: agent.NewSession(root), System: systemPrompt,
		Approval: agent.Approval{Policy: agent.PolicyAuto},
		Budget:   &agent.Budget{Window: w.Tokens, Source: w.Source, Hint: w.Hint, Reads: g},
	}
	defer a.Session.Close()
	_, err = a.Run(t.Context(), "hello", nil)
	if !errors.Is(err, agent.ErrContextWindow) {
		t.Fatalf("run: %v, want ErrContextWindow", err)
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.Contains(msg, "trained for 2048 tokens") || !strings.Contains(msg, "2048 tokens") {
		t.Errorf("error %q: want one line naming the 2048-token window and what the model was trained for", msg)
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("%d requests sent to a window that cannot hold them", n)
	}
}

// With a system prompt small enough, the same 2,048-token window is
// worked in: no request the server receives is larger than it.
func TestSmallOllamaWindowNeverOverflowed(t *testing.T) {
	root := t.TempDir()
	var answers []llmtest.Answer
	for i := 1; i <= 4; i++ {
		n := fmt.Sprintf("f%d.txt", i)
		if err := os.WriteFile(filepath.Join(root, n), []byte(sixKB(n)), 0o644); err != nil {
			t.Fatal(err)
		}
		answers = append(answers, llmtest.Say(readCall(n)))
	}
	answers = append(answers, llmtest.Say("done"))
	s := llmtest.NewOllamaServer(t, []llmtest.OllamaModel{{Name: "qwen3:latest", Max: 40960}}, answers...)
	s.CountPrompt(func(r llmtest.Request) int { return len(r.Text()) / bytesPerToken })
	s.Intercept(summaries)
	// context_window = 2048: sent as num_ctx, and the budget's window.
	model, err := ollama.New(ollama.Options{Model: "qwen3", BaseURL: s.URL, NumCtx: 2048})
	if err != nil {
		t.Fatal(err)
	}
	w := model.Window(t.Context(), 0)
	g := &guardTools{root: root, read: map[string]string{}}
	a := &agent.Agent{
		Model: model, Tools: g.registry(), Session: agent.NewSession(root), System: "You are terse. Read files with read_file.",
		Approval: agent.Approval{Policy: agent.PolicyAuto},
		Budget:   &agent.Budget{Window: w.Tokens, Source: w.Source, Hint: w.Hint, Reads: g},
	}
	defer a.Session.Close()
	if _, err := a.Run(t.Context(), "read four files", nil); err != nil {
		t.Fatal(err)
	}
	for i, r := range s.Requests() {
		if n := len(r.Text()) / bytesPerToken; n > w.Tokens || r.Lost > 0 || r.NumCtx != 2048 {
			t.Errorf("request %d: %d tokens (%d lost) sent to a %d-token window, num_ctx %d", i+1, n, r.Lost, w.Tokens, r.NumCtx)
		}
	}
}

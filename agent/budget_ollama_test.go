package agent_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/agent/llm/openai"
)

// An Ollama that loaded the model with 2,048 tokens would cut the system
// prompt from the front; the run must refuse in one line instead, naming
// the setting that fixes it, and send nothing.
func TestSmallOllamaWindowRefusedInOneLine(t *testing.T) {
	s := llmtest.NewOllamaServer(t, []llmtest.OllamaModel{{Name: "qwen3:latest", Loaded: 2048, Max: 40960}}, llmtest.Say("never sent"))
	cfg := &config.Config{Provider: "ollama", Model: "qwen3", BaseURL: s.URL, Family: config.FamilyOpenAI, Origins: map[string]string{}}
	w := config.DetectWindow(t.Context(), nil, cfg, nil)
	model, err := openai.New(openai.Options{Provider: "ollama", Model: "qwen3", BaseURL: s.URL})
	if err != nil {
		t.Fatal(err)
	}
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
	if strings.Contains(msg, "\n") || !strings.Contains(msg, "OLLAMA_CONTEXT_LENGTH") || !strings.Contains(msg, "2048 tokens") {
		t.Errorf("error %q: want one line naming the 2048-token window and OLLAMA_CONTEXT_LENGTH", msg)
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
	s := llmtest.NewOllamaServer(t, []llmtest.OllamaModel{{Name: "qwen3:latest", Loaded: 2048, Max: 40960}}, answers...)
	s.CountPrompt(func(r llmtest.Request) int { return len(r.Text()) / bytesPerToken })
	s.Intercept(summaries)
	cfg := &config.Config{Provider: "ollama", Model: "qwen3", BaseURL: s.URL, Family: config.FamilyOpenAI, Origins: map[string]string{}}
	w := config.DetectWindow(t.Context(), nil, cfg, nil)
	model, err := openai.New(openai.Options{Provider: "ollama", Model: "qwen3", BaseURL: s.URL})
	if err != nil {
		t.Fatal(err)
	}
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
		if n := len(r.Text()) / bytesPerToken; n > w.Tokens {
			t.Errorf("request %d: %d tokens sent to a %d-token window", i+1, n, w.Tokens)
		}
	}
}

package openai

import (
	"net"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

func windowOf(t *testing.T, url, model string, ask bool) llm.Window {
	t.Helper()
	m, err := New(Options{Model: model, BaseURL: url, AskWindow: ask})
	if err != nil {
		t.Fatal(err)
	}
	return m.Window(t.Context(), 20000)
}

// TestWindowFromTheServer: llama.cpp says its window in /props, LM
// Studio in its model list (loaded, or its default for a model it will
// load); another server gets the assumed window with a note, and a
// hosted service is not asked at all.
func TestWindowFromTheServer(t *testing.T) {
	llama := llmtest.NewLlamaCppServer(t, 4096)
	if w := windowOf(t, llama.URL, "any", true); w.Tokens != 4096 || w.Source != "llama.cpp /props" || !strings.Contains(w.Hint, "--ctx-size") {
		t.Errorf("llama.cpp: %+v", w)
	}
	studio := llmtest.NewLMStudioServer(t, []llmtest.LMStudioModel{{ID: "qwen3-8b", Loaded: 8192, Max: 40960}, {ID: "gemma-3-1b", Max: 32768}})
	if w := windowOf(t, studio.URL, "qwen3-8b", true); w.Tokens != 8192 || !strings.Contains(w.Source, "loaded") {
		t.Errorf("LM Studio, loaded: %+v", w)
	}
	if w := windowOf(t, studio.URL, "gemma-3-1b", true); w.Tokens != 4096 || !strings.Contains(w.Source, "not loaded") {
		t.Errorf("LM Studio, not loaded: %+v", w)
	}
	other := llmtest.NewOpenAIServer(t)
	other.Absent("/props", "/api/v0/models")
	if w := windowOf(t, other.URL, "m", true); w.Tokens != AssumedWindow || w.Note == "" {
		t.Errorf("another server: %+v", w)
	}
	hosted := llmtest.NewOpenAIServer(t) // any request would fail the test
	if w := windowOf(t, hosted.URL, "m", false); w != (llm.Window{}) {
		t.Errorf("a hosted service: %+v, want nothing asked", w)
	}
}

// TestLocalServerNotRunning: a local server that is not running is named
// as such.
func TestLocalServerNotRunning(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/v1"
	l.Close()
	m, err := New(Options{Model: "m", BaseURL: url, Local: "llama.cpp", Policy: llm.Policy{Attempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, err = llmtest.Collect(m.Stream(t.Context(), hi))
	if err == nil || !strings.Contains(err.Error(), "llama.cpp is not running at "+url+" (connection refused)") {
		t.Errorf("err = %v", err)
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/ui/run"
)

func TestRunSendsPromptThenPipedText(t *testing.T) {
	h := newRunHarness(t, "looks fine")
	h.stdin = "diff --git a/x b/x\n+added\n"
	if _, errOut, code := h.run("review this"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "review this\n\n```\ndiff --git a/x b/x\n+added\n```\n"
	if got := h.model.Requests()[0].Messages[0].Text; got != want {
		t.Errorf("prompt = %q, want %q", got, want)
	}
}

func TestRunCutsLongPipedText(t *testing.T) {
	h := newRunHarness(t, "ok")
	h.stdin = strings.Repeat("x", run.PipedLimit+1000)
	_, errOut, code := h.run("summarise")
	if code != 0 || !strings.Contains(errOut, "256.0 KiB were kept, 1000 bytes more were not sent") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	got := h.model.Requests()[0].Messages[0].Text
	if strings.Count(got, "x") != run.PipedLimit || !strings.Contains(got, "1000 bytes more were not sent") {
		t.Errorf("prompt has %d x and note %v", strings.Count(got, "x"), strings.Contains(got, "not sent"))
	}
}

// A pipe that is silent at first is waited for, with one line saying
// how not to wait, and read to its end.
// A pipe that never says anything is given up after stdin_timeout, saying
// so; one that said something and then went silent keeps what it said.
// Over the limit, the text is cut at the last line end within it.
// A closed standard input (`<&-`) is not waited for and is no error.
// Piped text beyond what the model's context window leaves room for is
// cut there, at a line end, with the note.
func TestRunCutsPipedTextToTheContextBudget(t *testing.T) {
	h := newRunHarness(t, "ok")
	if err := os.MkdirAll(filepath.Join(h.dir, ".agent"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.write(".agent/config.toml", "context_window = 8192\n")
	h.stdin = strings.Repeat("a line of the log\n", 4000) // 72,000 bytes
	// Trusted: a window the user left to the model waits for trust.
	_, errOut, code := h.run("--trust", "summarise")
	if code != 0 || !strings.Contains(errOut, "the piped input was cut") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	got := h.model.Requests()[0].Messages[0].Text
	kept := strings.Count(got, "a line of the log\n")
	if kept == 0 || kept*18 > 8192*4 {
		t.Errorf("kept %d lines of the log (%d bytes) for an 8,192-token window", kept, kept*18)
	}
	if !strings.Contains(got, "a line of the log\n```") {
		t.Errorf("the cut is not at a line end: %q", got[len(got)-200:])
	}
}

// Ctrl+C while waiting for piped input ends the wait at once.

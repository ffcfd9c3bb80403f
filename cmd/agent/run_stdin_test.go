package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	h.stdin = strings.Repeat("x", pipedLimit+1000)
	_, errOut, code := h.run("summarise")
	if code != 0 || !strings.Contains(errOut, "256.0 KiB were kept, 1000 bytes more were not sent") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	got := h.model.Requests()[0].Messages[0].Text
	if strings.Count(got, "x") != pipedLimit || !strings.Contains(got, "1000 bytes more were not sent") {
		t.Errorf("prompt has %d x and note %v", strings.Count(got, "x"), strings.Contains(got, "not sent"))
	}
}

// A pipe that is silent at first is waited for, with one line saying
// how not to wait, and read to its end.
func TestReadPipedWaitsForALateWriter(t *testing.T) {
	r, w := io.Pipe()
	go func() {
		time.Sleep(100 * time.Millisecond)
		io.WriteString(w, "FAIL: TestX\n")
		time.Sleep(50 * time.Millisecond)
		io.WriteString(w, "exit status 1\n")
		w.Close()
	}()
	var errOut strings.Builder
	text, cut, err := readPiped(t.Context(), r, pipeWait{notice: 20 * time.Millisecond, timeout: time.Minute, errOut: &errOut}, pipedLimit)
	if err != nil || text != "FAIL: TestX\nexit status 1\n" || cut != 0 {
		t.Fatalf("readPiped = %q, %d, %v", text, cut, err)
	}
	if want := "agent: waiting for standard input to end (up to 1m, stdin_timeout); run with </dev/null not to wait\n"; errOut.String() != want {
		t.Errorf("stderr = %q, want %q", errOut.String(), want)
	}
}

// A pipe that never says anything is given up after stdin_timeout, saying
// so; one that said something and then went silent keeps what it said.
func TestReadPipedGivesUpAfterTheTimeout(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	var errOut strings.Builder
	text, cut, err := readPiped(t.Context(), r, pipeWait{notice: time.Hour, timeout: 30 * time.Millisecond, errOut: &errOut}, pipedLimit)
	if err != nil || text != "" || cut != 0 {
		t.Fatalf("readPiped = %q, %d, %v", text, cut, err)
	}
	if !strings.Contains(errOut.String(), "nothing came on standard input in 30ms (stdin_timeout); going on without it") {
		t.Errorf("stderr = %q", errOut.String())
	}

	r, w = io.Pipe()
	defer w.Close()
	go io.WriteString(w, "half a log\n")
	errOut.Reset()
	text, _, err = readPiped(t.Context(), r, pipeWait{notice: time.Hour, timeout: 50 * time.Millisecond, errOut: &errOut}, pipedLimit)
	if err != nil || text != "half a log\n" || !strings.Contains(errOut.String(), "said nothing more for 50ms") {
		t.Fatalf("readPiped = %q, %v; stderr %q", text, err, errOut.String())
	}
}

// Over the limit, the text is cut at the last line end within it.
func TestReadPipedCutsAtALineEnd(t *testing.T) {
	in := strings.Repeat("0123456789\n", 10) // 110 bytes
	text, cut, err := readPiped(t.Context(), strings.NewReader(in), pipeWait{notice: time.Hour, timeout: time.Minute, errOut: io.Discard}, 50)
	if err != nil || text != strings.Repeat("0123456789\n", 4) || cut != 66 {
		t.Fatalf("readPiped = %q, %d, %v", text, cut, err)
	}
}

// A closed standard input (`<&-`) is not waited for and is no error.
func TestReadPipedClosedStdin(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	text, cut, err := readPiped(t.Context(), f, pipeWait{notice: time.Hour, timeout: time.Hour, errOut: io.Discard}, pipedLimit)
	if err != nil || text != "" || cut != 0 {
		t.Fatalf("readPiped = %q, %d, %v", text, cut, err)
	}
}

// Piped text beyond what the model's context window leaves room for is
// cut there, at a line end, with the note.
func TestRunCutsPipedTextToTheContextBudget(t *testing.T) {
	h := newRunHarness(t, "ok")
	if err := os.MkdirAll(filepath.Join(h.dir, ".agent"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.write(".agent/config.toml", "context_window = 8192\n")
	h.stdin = strings.Repeat("a line of the log\n", 4000) // 72,000 bytes
	_, errOut, code := h.run("summarise")
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
func TestReadPipedInterrupted(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, _, err := readPiped(ctx, r, pipeWait{notice: time.Hour, timeout: time.Hour, errOut: io.Discard}, pipedLimit); !errors.Is(err, context.Canceled) {
		t.Fatalf("readPiped = %v, want context.Canceled", err)
	}
}

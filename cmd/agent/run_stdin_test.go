package main

import (
	"io"
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

func TestPipedFenceOutlastsBackticks(t *testing.T) {
	got := withPiped("p", "a ``` b", 0)
	if !strings.HasPrefix(got, "p\n\n````\n") || !strings.HasSuffix(got, "\n````\n") {
		t.Errorf("withPiped = %q", got)
	}
}

func TestReadPipedGivesUpOnASilentPipe(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	start := time.Now()
	text, cut, err := readPiped(r, 20*time.Millisecond, pipedLimit)
	if err != nil || text != "" || cut != 0 {
		t.Fatalf("readPiped = %q, %d, %v", text, cut, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("waited %s on a silent pipe", d)
	}
}

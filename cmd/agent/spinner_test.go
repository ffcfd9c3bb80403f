package main

import (
	"context"
	"iter"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

func TestSpinnerDrawsWhileWaitingAndErasesBeforePrinting(t *testing.T) {
	var w syncBuffer
	s := &spinner{w: &w, label: "waiting for m"}
	s.start()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(w.String(), "⠙") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := w.String(); !strings.HasPrefix(got, "\r\x1b[K⠋ waiting for m…\r\x1b[K⠙ waiting for m…") {
		t.Fatalf("drawn %q, want frames redrawn in place", got)
	}
	s.hold()
	if got := w.String(); !strings.HasSuffix(got, "\r\x1b[K") {
		t.Errorf("not erased before printing: %q", got)
	}
	held := w.String()
	time.Sleep(3 * spinnerTick)
	if w.String() != held {
		t.Errorf("drawn while the printer held it: %q", strings.TrimPrefix(w.String(), held))
	}
	s.release(true)
	s.stop()
	stopped := w.String()
	if !strings.HasSuffix(stopped, "\r\x1b[K") {
		t.Errorf("not erased at the end: %q", stopped)
	}
	time.Sleep(3 * spinnerTick)
	if w.String() != stopped {
		t.Errorf("drawn after stop: %q", strings.TrimPrefix(w.String(), stopped))
	}
}

func TestSpinnerDrawsNothingInsideALineOfProse(t *testing.T) {
	var w syncBuffer
	s := &spinner{w: &w, label: "waiting for m"}
	s.hold()
	s.release(false) // prose printed up to the middle of a line
	s.start()
	time.Sleep(3 * spinnerTick)
	s.stop()
	if w.String() != "" {
		t.Errorf("drew %q over a line of prose", w.String())
	}
}

func TestSpinnerPlainLineAfterSilence(t *testing.T) {
	defer func(d time.Duration) { plainAfter = d }(plainAfter)
	plainAfter = 50 * time.Millisecond
	var w syncBuffer
	s := &spinner{w: &w, label: "waiting for m", plain: true}
	s.start()
	time.Sleep(plainAfter / 2)
	s.hold()
	s.release(true) // something printed: the silence starts again
	time.Sleep(plainAfter / 2)
	if w.String() != "" {
		t.Fatalf("a line after less silence than plainAfter: %q", w.String())
	}
	time.Sleep(2 * plainAfter)
	s.stop()
	if !regexp.MustCompile(`^agent: still waiting for m \(\d+ ms so far\)\n$`).MatchString(w.String()) {
		t.Errorf("plain output = %q, want one line, no escape codes", w.String())
	}
}

func TestWaitingModelStopsAtTheFirstOutput(t *testing.T) {
	var w syncBuffer
	s := &spinner{w: &w, label: "waiting for m"}
	m := waitingModel{Model: llmtest.Texts("hello"), spin: s}
	for c, err := range m.Stream(t.Context(), llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "hi"}}}) {
		if err != nil {
			t.Fatal(err)
		}
		s.mu.Lock()
		waiting := s.waiting
		s.mu.Unlock()
		if waiting && c.Text != "" {
			t.Error("still waiting after the first output")
		}
	}
	if s.waiting {
		t.Error("waiting after the stream ended")
	}
}

// thinkingModel thinks aloud, then answers.
type thinkingModel struct{ during func() }

func (thinkingModel) Name() string { return "test/thinker" }

func (m thinkingModel) Stream(context.Context, llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		if !yield(llm.Chunk{Thought: "hmm"}, nil) {
			return
		}
		m.during()
		yield(llm.Chunk{Text: "answer"}, nil)
	}
}

func TestWaitingModelWaitsThroughThoughts(t *testing.T) {
	var w syncBuffer
	s := &spinner{w: &w, label: "waiting for thinker", thinkLabel: "thinker is thinking"}
	m := waitingModel{Model: thinkingModel{during: func() { time.Sleep(3 * spinnerTick) }}, spin: s}
	for _, err := range m.Stream(t.Context(), llm.Request{}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := w.String(); !strings.Contains(got, "⠋ thinker is thinking…") || !strings.HasSuffix(got, "\r\x1b[K") {
		t.Errorf("drawn %q, want the thinking shown, then erased", got)
	}
}

func TestSpinnerIsPlainWhereItCannotBeDrawn(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	os.Unsetenv("NO_COLOR") // restored when the test ends
	t.Setenv("TERM", "xterm-256color")
	tty := &streams{stderrTTY: true}
	if s := newSpinner(tty, "gemini/gemini-2.5-flash"); s.plain || s.label != "waiting for gemini-2.5-flash" {
		t.Errorf("on a terminal: plain=%v label=%q, want a drawn spinner naming the model", s.plain, s.label)
	}
	if s := newSpinner(&streams{}, "gemini/m"); !s.plain {
		t.Error("stderr not a terminal: not plain")
	}
	t.Setenv("TERM", "dumb")
	if s := newSpinner(tty, "gemini/m"); !s.plain {
		t.Error("TERM=dumb: not plain")
	}
	t.Setenv("TERM", "xterm-256color")
	t.Setenv("NO_COLOR", "1")
	if s := newSpinner(tty, "gemini/m"); !s.plain {
		t.Error("NO_COLOR: not plain")
	}
}

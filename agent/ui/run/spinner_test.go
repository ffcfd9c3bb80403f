package run

import (
	"context"
	"iter"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// fakeClock is a spinner's time moved by the test: Advance runs what
// falls due, in order, on the test's goroutine.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	c     *fakeClock
	at    time.Time
	every time.Duration // 0 for a one-off
	f     func()
	on    bool
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) add(d, every time.Duration, f func()) *fakeTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now.Add(d), every: every, f: f, on: true}
	c.timers = append(c.timers, t)
	return t
}

func (c *fakeClock) Every(d time.Duration, f func()) func() {
	t := c.add(d, d, f)
	return func() { t.Stop() }
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) alarm { return c.add(d, 0, f) }

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.on
	t.at, t.on = t.c.now.Add(d), true
	return was
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.on
	t.on = false
	return was
}

// Advance moves the clock by d, calling each timer as it falls due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		var next *fakeTimer
		for _, t := range c.timers {
			if t.on && !t.at.After(end) && (next == nil || t.at.Before(next.at)) {
				next = t
			}
		}
		if next == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		c.now = next.at
		if next.every > 0 {
			next.at = next.at.Add(next.every)
		} else {
			next.on = false
		}
		c.mu.Unlock()
		next.f()
	}
}

func TestSpinnerDrawsWhileWaitingAndErasesBeforePrinting(t *testing.T) {
	var w strings.Builder
	clk := newFakeClock()
	s := &spinner{w: &w, label: "waiting for m", clock: clk}
	s.start()
	clk.Advance(2 * spinnerTick)
	if got := w.String(); got != "\r\x1b[K⠋ waiting for m…\r\x1b[K⠙ waiting for m…" {
		t.Fatalf("drawn %q, want frames redrawn in place", got)
	}
	clk.Advance(time.Second)
	if got := w.String(); !strings.HasSuffix(got, "waiting for m… 1 s") {
		t.Errorf("after a second %q, want the seconds counted", got)
	}
	s.hold()
	if got := w.String(); !strings.HasSuffix(got, "\r\x1b[K") {
		t.Errorf("not erased before printing: %q", got)
	}
	held := w.String()
	clk.Advance(3 * spinnerTick)
	if w.String() != held {
		t.Errorf("drawn while the printer held it: %q", strings.TrimPrefix(w.String(), held))
	}
	s.release(true)
	clk.Advance(spinnerTick)
	if w.String() == held {
		t.Error("not drawn again once released")
	}
	s.stop()
	stopped := w.String()
	if !strings.HasSuffix(stopped, "\r\x1b[K") {
		t.Errorf("not erased at the end: %q", stopped)
	}
	clk.Advance(3 * spinnerTick)
	if w.String() != stopped {
		t.Errorf("drawn after stop: %q", strings.TrimPrefix(w.String(), stopped))
	}
}

func TestSpinnerDrawsNothingInsideALineOfProse(t *testing.T) {
	var w strings.Builder
	clk := newFakeClock()
	s := &spinner{w: &w, label: "waiting for m", clock: clk}
	s.hold()
	s.release(false) // prose printed up to the middle of a line
	s.start()
	clk.Advance(3 * spinnerTick)
	s.stop()
	if w.String() != "" {
		t.Errorf("drew %q over a line of prose", w.String())
	}
}

func TestSpinnerPlainLineAfterSilence(t *testing.T) {
	var w strings.Builder
	clk := newFakeClock()
	s := &spinner{w: &w, label: "waiting for m", plain: true, clock: clk}
	s.start()
	clk.Advance(plainAfter / 2)
	s.hold()
	s.release(true) // something printed: the silence starts again
	clk.Advance(plainAfter - time.Millisecond)
	if w.String() != "" {
		t.Fatalf("a line after less silence than plainAfter: %q", w.String())
	}
	clk.Advance(time.Millisecond)
	s.stop()
	if got, want := w.String(), "agent: still waiting for m (8 s so far)\n"; got != want {
		t.Errorf("plain output = %q, want %q: one line, no escape codes", got, want)
	}
	clk.Advance(2 * plainAfter)
	if strings.Count(w.String(), "\n") != 1 {
		t.Errorf("a line after stop: %q", w.String())
	}
}

func TestWaitingModelStopsAtTheFirstOutput(t *testing.T) {
	var w strings.Builder
	s := &spinner{w: &w, label: "waiting for m", clock: newFakeClock()}
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
	var w strings.Builder
	clk := newFakeClock()
	s := &spinner{w: &w, label: "waiting for thinker", thinkLabel: "thinker is thinking", clock: clk}
	m := waitingModel{Model: thinkingModel{during: func() { clk.Advance(3 * spinnerTick) }}, spin: s}
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
	tty := Streams{StderrTTY: true}
	if s := newSpinner(tty, "gemini/gemini-2.5-flash"); s.plain || s.label != "waiting for gemini-2.5-flash" {
		t.Errorf("on a terminal: plain=%v label=%q, want a drawn spinner naming the model", s.plain, s.label)
	}
	if s := newSpinner(Streams{}, "gemini/m"); !s.plain {
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

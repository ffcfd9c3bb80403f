package run

import (
	"context"
	"fmt"
	"io"
	"iter"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/agentcli/agent/agent/llm"
)

// spinnerFrames are drawn in turn, one per tick.
var spinnerFrames = [...]string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

const spinnerTick = 100 * time.Millisecond

// plainAfter is how long a wait stays silent, where no spinner can be
// drawn, before one plain line says it goes on.
const plainAfter = 5 * time.Second

// spinner shows on stderr that the model is being waited on: from a
// model call to its first output, retries and their waits included. On a
// terminal it is one line redrawn in place ("⠋ waiting for
// gemini-2.5-flash… 3 s") and erased before anything else is printed;
// where it cannot be drawn (stderr is not a terminal, NO_COLOR,
// TERM=dumb) one plain line is printed after plainAfter of silence
// instead. It costs nothing until the first model call: no goroutine, no
// timer.
type spinner struct {
	w     io.Writer
	label string // "waiting for gemini-2.5-flash"
	// thinkLabel replaces label once the model is thinking ("gemini-2.5-flash
	// is thinking"): its thoughts are not shown in text output.
	thinkLabel string
	plain      bool
	// clock is the spinner's time; the real one when nil (tests move
	// their own).
	clock clock

	mu      sync.Mutex
	waiting bool
	since   time.Time
	frame   int
	shown   bool // a frame is on the screen
	held    bool // the printer is writing
	blocked bool // the cursor is inside a line of prose: draw nothing
	// thinking is true once thoughts came: the wait goes on until text.
	thinking bool
	stopSpin func() // ends the redraws of a drawn spinner
	timer    alarm  // plain mode
}

// clock is the time a spinner runs on: its redraws, the silence before a
// plain line, and the seconds it shows.
type clock interface {
	Now() time.Time
	// Every calls f every d until stop is called.
	Every(d time.Duration, f func()) (stop func())
	// AfterFunc calls f once d has passed, unless stopped or reset first.
	AfterFunc(d time.Duration, f func()) alarm
}

// alarm is a pending AfterFunc call (*time.Timer is one).
type alarm interface {
	Reset(d time.Duration) bool
	Stop() bool
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) alarm { return time.AfterFunc(d, f) }

func (realClock) Every(d time.Duration, f func()) func() {
	t := time.NewTicker(d)
	done := make(chan struct{})
	go func() {
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				f()
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}

func (s *spinner) clk() clock {
	if s.clock == nil {
		return realClock{}
	}
	return s.clock
}

// newSpinner returns the wait indicator for `agent run` text output about
// the model named "provider/model".
func newSpinner(s Streams, model string) *spinner {
	_, noColor := os.LookupEnv("NO_COLOR")
	plain := !s.StderrTTY || noColor || os.Getenv("TERM") == "dumb"
	if _, m, ok := strings.Cut(model, "/"); ok {
		model = m
	}
	width := 80
	if !plain {
		width = stderrWidth()
	}
	// The frame, the label and "… 999 s" must fit on one line, or the
	// erase would leave the wrapped part behind.
	fit := func(label string) string {
		if room := max(width-16, 1); utf8.RuneCountInString(label) > room {
			return string([]rune(label)[:room])
		}
		return label
	}
	return &spinner{w: s.ErrOut, label: fit("waiting for " + model), thinkLabel: fit(model + " is thinking"), plain: plain}
}

// stderrWidth is the width of the terminal on stderr, 80 when it is not
// one.
func stderrWidth() int {
	if w, _, err := term.GetSize(int(os.Stderr.Fd())); err == nil && w > 0 {
		return w
	}
	return 80
}

// start begins a wait.
func (s *spinner) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.waiting {
		return
	}
	s.waiting, s.since, s.thinking = true, s.clk().Now(), false
	if s.plain {
		if s.timer == nil {
			s.timer = s.clk().AfterFunc(plainAfter, s.sayPlain)
		} else {
			s.timer.Reset(plainAfter)
		}
		return
	}
	s.stopSpin = s.clk().Every(spinnerTick, s.tick)
}

// think says the model is thinking: the wait goes on, worded so.
func (s *spinner) think() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.thinking = true
}

func (s *spinner) text() string {
	if s.thinking && s.thinkLabel != "" {
		return s.thinkLabel
	}
	return s.label
}

// stop ends the wait and erases the spinner.
func (s *spinner) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.waiting {
		return
	}
	s.waiting = false
	s.erase()
	if s.timer != nil {
		s.timer.Stop()
	}
	if s.stopSpin != nil {
		s.stopSpin()
		s.stopSpin = nil
	}
}

// hold erases the spinner and keeps it off while the printer writes.
func (s *spinner) hold() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.erase()
	s.held = true
}

// release lets the spinner draw again; atLineStart says whether the
// cursor is at the start of a line (prose printed up to a line break),
// where a frame does no harm. Something was printed, so the silence a
// plain line waits for starts again.
func (s *spinner) release(atLineStart bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held, s.blocked = false, !atLineStart
	if s.plain && s.waiting && s.timer != nil {
		s.timer.Reset(plainAfter)
	}
}

// tick redraws the spinner, unless the printer holds it or the cursor is
// inside a line of prose.
func (s *spinner) tick() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.waiting && !s.held && !s.blocked {
		s.draw()
	}
}

// draw redraws the line; the caller holds mu.
func (s *spinner) draw() {
	line := "\r\x1b[K" + spinnerFrames[s.frame%len(spinnerFrames)] + " " + s.text() + "…"
	if d := s.clk().Now().Sub(s.since); d >= time.Second {
		line += fmt.Sprintf(" %d s", int(d.Seconds()))
	}
	s.frame++
	io.WriteString(s.w, line)
	s.shown = true
}

// erase clears the line the spinner is on; the caller holds mu.
func (s *spinner) erase() {
	if s.shown {
		io.WriteString(s.w, "\r\x1b[K")
		s.shown = false
	}
}

func (s *spinner) sayPlain() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.waiting && !s.held && !s.blocked {
		fmt.Fprintf(s.w, "agent: still %s (%s so far)\n", s.text(), waitText(s.clk().Now().Sub(s.since)))
	}
}

// waitingModel runs the spinner from each model call to its first text
// (thoughts are not shown in text output, so they are waited through).
type waitingModel struct {
	llm.Model
	spin *spinner
}

// Unwrap is the model waited on: what it says of itself (whether it
// reads images) holds for the wrapper.
func (m waitingModel) Unwrap() llm.Model { return m.Model }

func (m waitingModel) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		m.spin.start()
		waiting := true
		defer func() {
			if waiting {
				m.spin.stop()
			}
		}()
		for c, err := range m.Model.Stream(ctx, req) {
			if waiting && c.Thought != "" && c.Text == "" && err == nil {
				m.spin.think()
			} else if waiting {
				m.spin.stop()
				waiting = false
			}
			if !yield(c, err) {
				return
			}
		}
	}
}

package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// ttyAnswer stands for a controlling terminal on which the user types s.
type ttyAnswer struct {
	io.Reader
	bytes.Buffer // what the terminal shows
	closed       bool
}

func (t *ttyAnswer) Read(p []byte) (int, error) { return t.Reader.Read(p) }

func (t *ttyAnswer) Close() error { t.closed = true; return nil }

func TestRunAsksOnTheTerminalWhenStdinIsAPipe(t *testing.T) {
	h := newRunHarness(t, writeCall, "ok")
	h.stdin = "write out.md" // the prompt, piped
	h.stderrTTY = true
	tty := &ttyAnswer{Reader: strings.NewReader("y\n")}
	h.openTTY = func() (io.ReadWriteCloser, error) { return tty, nil }
	_, errOut, code := h.run()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(tty.String(), "allow write_file") || strings.Contains(errOut, "allow write_file") {
		t.Errorf("the question was not asked on the terminal alone:\nterminal: %s\nstderr: %s", tty.String(), errOut)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "out.md")); err != nil {
		t.Errorf("the write allowed on the terminal did not happen: %v", err)
	}
	if !tty.closed {
		t.Errorf("the terminal was left open")
	}
}

func TestRunAsksOnTheTerminalWhenStderrGoesToALog(t *testing.T) {
	h := newRunHarness(t, writeCall, "ok")
	h.stdin = "write out.md"
	tty := &ttyAnswer{Reader: strings.NewReader("y\n")}
	h.openTTY = func() (io.ReadWriteCloser, error) { return tty, nil }
	_, errOut, code := h.run()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(tty.String(), "allow write_file") {
		t.Errorf("the question did not reach the terminal: %q", tty.String())
	}
	if _, err := os.Stat(filepath.Join(h.dir, "out.md")); err != nil {
		t.Errorf("the write allowed on the terminal did not happen: %v", err)
	}
}

func TestRunDenialWithReasonReachesTheModel(t *testing.T) {
	h := newRunHarness(t, writeCall, "ok")
	h.stdin = "write out.md"
	tty := &ttyAnswer{Reader: strings.NewReader("n: use the existing helper instead\n")}
	h.openTTY = func() (io.ReadWriteCloser, error) { return tty, nil }
	if _, errOut, code := h.run(); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	reqs := h.model.Requests()
	last := reqs[len(reqs)-1].Messages
	if !strings.Contains(last[len(last)-1].Text, "use the existing helper instead") {
		t.Errorf("the reason did not reach the model: %q", last[len(last)-1].Text)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "out.md")); err == nil {
		t.Errorf("the refused write happened")
	}
}

func TestRunWithoutATerminalDeniesWrites(t *testing.T) {
	h := newRunHarness(t, writeCall, "ok")
	h.stdin = "write out.md"
	h.stderrTTY = true
	h.openTTY = func() (io.ReadWriteCloser, error) { return nil, errors.New("no tty") }
	_, errOut, code := h.run()
	if code != exitRefused {
		t.Fatalf("exit %d, want 4: %s", code, errOut)
	}
	if !strings.Contains(errOut, "TOOL_POLICY_DENIED") || !strings.Contains(errOut, "--yes") {
		t.Errorf("want the write denied with the --yes advice:\n%s", errOut)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "out.md")); err == nil {
		t.Errorf("the write happened without approval")
	}
}

// pipeTTY stands for a terminal on which nobody types: reads wait on a
// pipe, which has read deadlines as a terminal does.
type pipeTTY struct {
	*os.File
	shown *syncBuffer
}

func (p pipeTTY) Write(b []byte) (int, error) { return p.shown.Write(b) }

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestCancelDuringAQuestionLeavesNoGoroutine(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	shown := &syncBuffer{}
	h := newRunHarness(t, writeCall, "ok")
	h.stdin = "write out.md"
	h.openTTY = func() (io.ReadWriteCloser, error) { return pipeTTY{r, shown}, nil }
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		for !strings.Contains(shown.String(), "allow write_file") {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	_, errOut, code := h.runContext(ctx)
	if code != exitInterrupted || !strings.Contains(errOut, "interrupted") {
		t.Errorf("exit %d, stderr %q; want the run interrupted", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "out.md")); err == nil {
		t.Errorf("the write happened though nobody answered")
	}
}

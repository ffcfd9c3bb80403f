package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ttyAnswer stands for a controlling terminal on which the user types s.
type ttyAnswer struct {
	io.Reader
	closed bool
}

func (t *ttyAnswer) Close() error { t.closed = true; return nil }

func TestRunAsksOnTheTerminalWhenStdinIsAPipe(t *testing.T) {
	h := newRunHarness(t, writeCall, "ok")
	h.stdin = "write out.md" // the prompt, piped
	h.stderrTTY = true
	tty := &ttyAnswer{Reader: strings.NewReader("y\n")}
	h.openTTY = func() (io.ReadCloser, error) { return tty, nil }
	_, errOut, code := h.run()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "allow write_file") {
		t.Errorf("the question was not asked on stderr:\n%s", errOut)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "out.md")); err != nil {
		t.Errorf("the write allowed on the terminal did not happen: %v", err)
	}
	if !tty.closed {
		t.Errorf("the terminal was left open")
	}
}

func TestRunWithoutATerminalDeniesWrites(t *testing.T) {
	for _, tc := range []struct {
		name      string
		stderrTTY bool
		open      func() (io.ReadCloser, error)
	}{
		{"no controlling terminal", true, func() (io.ReadCloser, error) { return nil, errors.New("no tty") }},
		{"stderr is not a terminal", false, func() (io.ReadCloser, error) { return &ttyAnswer{Reader: strings.NewReader("y\n")}, nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newRunHarness(t, writeCall, "ok")
			h.stdin = "write out.md"
			h.stderrTTY, h.openTTY = tc.stderrTTY, tc.open
			_, errOut, code := h.run()
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if !strings.Contains(errOut, "TOOL_POLICY_DENIED") || !strings.Contains(errOut, "--yes") {
				t.Errorf("want the write denied with the --yes advice:\n%s", errOut)
			}
			if _, err := os.Stat(filepath.Join(h.dir, "out.md")); err == nil {
				t.Errorf("the write happened without approval")
			}
		})
	}
}

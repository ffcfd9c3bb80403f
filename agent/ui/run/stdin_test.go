package run

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

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
	text, cut, err := readPiped(t.Context(), r, pipeWait{notice: 20 * time.Millisecond, timeout: time.Minute, errOut: &errOut}, PipedLimit)
	if err != nil || text != "FAIL: TestX\nexit status 1\n" || cut != 0 {
		t.Fatalf("readPiped = %q, %d, %v", text, cut, err)
	}
	if want := "agent: waiting for standard input to end (up to 1m, stdin_timeout); run with </dev/null not to wait\n"; errOut.String() != want {
		t.Errorf("stderr = %q, want %q", errOut.String(), want)
	}
}

func TestReadPipedGivesUpAfterTheTimeout(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	var errOut strings.Builder
	text, cut, err := readPiped(t.Context(), r, pipeWait{notice: time.Hour, timeout: 30 * time.Millisecond, errOut: &errOut}, PipedLimit)
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
	text, _, err = readPiped(t.Context(), r, pipeWait{notice: time.Hour, timeout: 50 * time.Millisecond, errOut: &errOut}, PipedLimit)
	if err != nil || text != "half a log\n" || !strings.Contains(errOut.String(), "said nothing more for 50ms") {
		t.Fatalf("readPiped = %q, %v; stderr %q", text, err, errOut.String())
	}
}

func TestReadPipedCutsAtALineEnd(t *testing.T) {
	in := strings.Repeat("0123456789\n", 10) // 110 bytes
	text, cut, err := readPiped(t.Context(), strings.NewReader(in), pipeWait{notice: time.Hour, timeout: time.Minute, errOut: io.Discard}, 50)
	if err != nil || text != strings.Repeat("0123456789\n", 4) || cut != 66 {
		t.Fatalf("readPiped = %q, %d, %v", text, cut, err)
	}
}

func TestReadPipedClosedStdin(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	text, cut, err := readPiped(t.Context(), f, pipeWait{notice: time.Hour, timeout: time.Hour, errOut: io.Discard}, PipedLimit)
	if err != nil || text != "" || cut != 0 {
		t.Fatalf("readPiped = %q, %d, %v", text, cut, err)
	}
}

func TestReadPipedInterrupted(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, _, err := readPiped(ctx, r, pipeWait{notice: time.Hour, timeout: time.Hour, errOut: io.Discard}, PipedLimit); !errors.Is(err, context.Canceled) {
		t.Fatalf("readPiped = %v, want context.Canceled", err)
	}
}

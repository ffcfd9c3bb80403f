package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// pipedLimit caps the piped text sent with a prompt.
const pipedLimit = 256 << 10

// pipeWait is how long `agent run "prompt"` waits for the first byte on a
// standard input that is not a terminal. A pipe that says nothing in that
// time (a CI runner's stdin that never closes) is left alone, so the run
// never hangs on it.
const pipeWait = 100 * time.Millisecond

// readPiped reads what is piped in alongside a prompt argument: nothing
// when no byte comes within wait, else up to limit bytes. cut is how many
// bytes beyond the limit were dropped.
func readPiped(in io.Reader, wait time.Duration, limit int) (text string, cut int64, err error) {
	type first struct {
		b   []byte
		err error
	}
	got := make(chan first, 1)
	go func() {
		buf := make([]byte, 32<<10)
		n, err := in.Read(buf)
		got <- first{buf[:n], err}
	}()
	var f first
	select {
	case f = <-got:
	case <-time.After(wait):
		// The reader stays blocked on the silent pipe; the process
		// ends with the run.
		return "", 0, nil
	}
	if f.err != nil && f.err != io.EOF {
		return "", 0, fmt.Errorf("read standard input: %w", f.err)
	}
	var b strings.Builder
	b.Write(f.b)
	if f.err == nil {
		if _, err := io.Copy(&b, io.LimitReader(in, int64(limit-min(limit, b.Len())+1))); err != nil {
			return "", 0, fmt.Errorf("read standard input: %w", err)
		}
	}
	s := b.String()
	if len(s) > limit {
		rest, err := io.Copy(io.Discard, in)
		if err != nil {
			return "", 0, fmt.Errorf("read standard input: %w", err)
		}
		cut = int64(len(s)-limit) + rest
		s = s[:limit]
	}
	return s, cut, nil
}

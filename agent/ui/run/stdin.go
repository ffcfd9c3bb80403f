package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"
)

// PipedLimit caps the piped text sent with a prompt (256 KiB).
const PipedLimit = 256 << 10

// stdinNotice is how long `agent run "prompt"` waits for the first byte
// on a piped standard input before saying that it waits.
const stdinNotice = 3 * time.Second

// pipeWait says how readPiped waits on a pipe: a line on errOut after
// notice without a byte (how not to wait), and giving up after a silence
// of timeout (stdin_timeout).
type pipeWait struct {
	notice, timeout time.Duration
	errOut          io.Writer
}

// readPiped reads what is piped in alongside a prompt argument to its end,
// however late it starts (`go test ./... | agent run "why?"`), keeping
// the first limit bytes, cut at a line end; cut is how many bytes were
// left out. A standard input that is closed gives nothing; one that says
// nothing for w.timeout is given up, saying so on w.errOut, with what it
// had sent.
// A cancelled ctx (Ctrl+C) ends the wait with ctx's error.
func readPiped(ctx context.Context, in io.Reader, w pipeWait, limit int) (text string, cut int64, err error) {
	type chunk struct {
		b   []byte
		err error
	}
	// The reader may stay blocked on a silent pipe after a give-up; the
	// process ends with the run. It hands over one chunk at a time.
	chunks := make(chan chunk)
	go func() {
		for {
			buf := make([]byte, 32<<10)
			n, err := in.Read(buf)
			chunks <- chunk{buf[:n], err}
			if err != nil {
				return
			}
		}
	}()
	notice := time.NewTimer(w.notice)
	defer notice.Stop()
	silence := time.NewTimer(w.timeout)
	defer silence.Stop()
	var b strings.Builder
	var got int64
	for {
		select {
		case c := <-chunks:
			got += int64(len(c.b))
			if room := limit - b.Len(); room > 0 {
				b.Write(c.b[:min(room, len(c.b))])
			}
			notice.Stop()
			silence.Reset(w.timeout)
			switch {
			case c.err == io.EOF:
				return keptPiped(b.String(), got, limit)
			case closedStdin(c.err) && got == 0:
				return "", 0, nil
			case c.err != nil:
				return "", 0, fmt.Errorf("read standard input: %w", c.err)
			}
		case <-ctx.Done():
			return "", 0, ctx.Err()
		case <-notice.C:
			fmt.Fprintf(w.errOut, "agent: waiting for standard input to end (up to %s, stdin_timeout); run with </dev/null not to wait\n", shortDuration(w.timeout))
		case <-silence.C:
			if got == 0 {
				fmt.Fprintf(w.errOut, "agent: nothing came on standard input in %s (stdin_timeout); going on without it\n", shortDuration(w.timeout))
				return "", 0, nil
			}
			fmt.Fprintf(w.errOut, "agent: standard input said nothing more for %s (stdin_timeout); going on with what came\n", shortDuration(w.timeout))
			return keptPiped(b.String(), got, limit)
		}
	}
}

// keptPiped is the first limit bytes of the got bytes read, s, cut at the
// last line end when there were more, and how many were left out.
func keptPiped(s string, got int64, limit int) (string, int64, error) {
	if got <= int64(limit) {
		return s, 0, nil
	}
	if nl := strings.LastIndexByte(s, '\n'); nl >= 0 {
		s = s[:nl+1]
	}
	return s, got - int64(len(s)), nil
}

// closedStdin reports a read error that means there is no standard input
// at all (`agent run "x" <&-`).
func closedStdin(err error) bool {
	return errors.Is(err, syscall.EBADF) || errors.Is(err, os.ErrClosed)
}

// shortDuration writes d as a person would: "10m", "1m30s", "3s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

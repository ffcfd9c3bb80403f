package main

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
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

// withPiped is the prompt followed by the piped text in a fenced block
// (a fence longer than any run of backticks in the text), and a note
// when the text was cut.
func withPiped(prompt, piped string, cut int64) string {
	if strings.TrimSpace(piped) == "" {
		return prompt
	}
	fence := "```"
	for strings.Contains(piped, fence) {
		fence += "`"
	}
	var b strings.Builder
	b.WriteString(prompt)
	b.WriteString("\n\n" + fence + "\n")
	b.WriteString(strings.TrimRight(piped, "\n"))
	b.WriteString("\n" + fence + "\n")
	if cut > 0 {
		fmt.Fprintf(&b, "\n%s\n", cutNote(len(piped), cut))
	}
	return b.String()
}

// fitPiped cuts piped text to room bytes (room <= 0: the window is not
// known, keep it all) at a line end where one is near, so that it leaves
// the model's context window room for the work. cut counts what was left
// out, including what readPiped already left.
func fitPiped(piped string, cut int64, room int) (string, int64) {
	if room <= 0 || len(piped) <= room {
		return piped, cut
	}
	keep := room
	for keep > 0 && !utf8.RuneStart(piped[keep]) {
		keep--
	}
	if nl := strings.LastIndexByte(piped[:keep], '\n'); nl >= keep*3/4 {
		keep = nl + 1
	}
	return piped[:keep], cut + int64(len(piped)-keep)
}

// cutNote says how much of the piped text was dropped.
func cutNote(kept int, cut int64) string {
	return fmt.Sprintf("(the piped input was cut: the first %s were kept, %s more were not sent)", humanBytes(int64(kept)), humanBytes(cut))
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

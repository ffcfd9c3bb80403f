package shell

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCaptureKeepsHeadAndTail(t *testing.T) {
	var whole strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&whole, "line %d\n", i)
	}
	cases := []struct {
		name   string
		chunks int // the stream is written in this many pieces
		budget int
	}{
		{"one write", 1, 400},
		{"small writes", 997, 400},
		{"writes larger than the tail", 3, 400},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCapture(tc.budget)
			s := whole.String()
			step := len(s)/tc.chunks + 1
			for i := 0; i < len(s); i += step {
				c.Write([]byte(s[i:min(i+step, len(s))]))
			}
			got := c.String()
			if !strings.HasPrefix(got, "line 1\nline 2\n") || !strings.HasSuffix(got, "line 999\nline 1000\n") {
				t.Errorf("head or tail lost:\n%s", got)
			}
			if len(got) > tc.budget+100 {
				t.Errorf("len = %d, want about the budget %d", len(got), tc.budget)
			}
			// The marker counts exactly what is missing.
			var skipped, lines int
			i := strings.Index(got, "[... ")
			if i < 0 {
				t.Fatalf("no marker in %q", got)
			}
			fmt.Sscanf(got[i:], "[... %d bytes (%d lines)", &skipped, &lines)
			kept := got[:i] + got[strings.Index(got[i:], "\n")+i+1:]
			if len(kept)+skipped != len(s) {
				t.Errorf("kept %d + skipped %d != %d", len(kept), skipped, len(s))
			}
			if strings.Count(kept, "\n")+lines != 1000 {
				t.Errorf("kept %d lines + %d skipped != 1000", strings.Count(kept, "\n"), lines)
			}
		})
	}
}

func TestCaptureSmallOutputWhole(t *testing.T) {
	c := newCapture(1000)
	c.Write([]byte("ok\n"))
	c.Write([]byte("PASS\n"))
	if got := c.String(); got != "ok\nPASS\n" {
		t.Errorf("String() = %q, want the whole output", got)
	}
	// Exactly the budget: nothing is left out.
	c = newCapture(100)
	c.Write([]byte(strings.Repeat("x", 100)))
	if got := c.String(); got != strings.Repeat("x", 100) {
		t.Errorf("String() of exactly the budget = %q", got)
	}
}

func TestCaptureValidUTF8(t *testing.T) {
	c := newCapture(101)
	c.Write([]byte(strings.Repeat("é", 500) + "\xff"))
	if got := c.String(); !utf8.ValidString(got) {
		t.Errorf("String() is not valid UTF-8: %q", got)
	}
}

// TestHugeOutputBounded runs a command writing 100 MB: the result keeps
// the budget, counts the rest, and the agent's memory stays flat.
func TestHugeOutputBounded(t *testing.T) {
	needBwrap(t)
	if testing.Short() {
		t.Skip("100 MB of output: skipped with -short")
	}
	dir := project(t, nil)
	streamed := 0
	tool := New(dir, Options{
		Budget: func(_ctx contextType) int { return 8000 },
		Stream: func(_ contextType, b []byte) { streamed += len(b) },
	})
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := runIn(t, tool, "echo first; yes 0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ | head -c 100000000; echo; echo last")
	runtime.ReadMemStats(&after)
	if meta(res, "exit_code") != "0" {
		t.Fatalf("%s %q", res.Message, short(res.Content))
	}
	if got := meta(res, "output_bytes"); got != "100000012" {
		t.Errorf("output_bytes = %s, want 100000012", got)
	}
	if streamed != 100000012 {
		t.Errorf("streamed %d bytes, want all 100000012", streamed)
	}
	if len(res.Content) > 9000 || !strings.HasPrefix(res.Content, "first\n") || !strings.Contains(res.Content, "last\n") {
		t.Errorf("content (%d bytes) not bounded to head and tail: %q", len(res.Content), short(res.Content))
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 8<<20 {
		t.Errorf("the call allocated %d MB for 100 MB of output; want flat memory", grown>>20)
	}
	t.Logf("allocated %d KB while reading 100 MB", (after.TotalAlloc-before.TotalAlloc)>>10)
}

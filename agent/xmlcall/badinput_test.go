package xmlcall

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// finishes fails the test if f does not return within a generous limit:
// the point is "never hangs", not a speed target.
func finishes(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("scanner did not return")
	}
}

// feedAll feeds in in chunks of n bytes and returns the errors and calls.
func feedAll(s *Scanner, in string, n int) (calls int, codes map[string]int) {
	codes = map[string]int{}
	count := func(evs []Event) {
		for _, e := range evs {
			if e.Call != nil {
				calls++
			}
			if e.Err != nil {
				codes[e.Err.Code]++
			}
		}
	}
	for i := 0; i < len(in); i += n {
		count(s.Feed(in[i:min(i+n, len(in))]))
	}
	count(s.Close())
	return calls, codes
}

func TestBadInput(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	random := make([]byte, 4<<20)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	var nested strings.Builder
	nested.WriteString(`<tool_call name="read_file">`)
	for i := range 20000 {
		fmt.Fprintf(&nested, "<p%d>x</p%d>q", i, i)
	}
	nested.WriteString("</tool_call>")
	cases := []struct {
		name      string
		in        string
		chunk     int
		wantCode  string
		wantCount int // errors of wantCode; -1: any number
	}{
		{"random bytes", string(random), 4096, "", -1},
		{"10,000 unclosed openers", strings.Repeat(`<tool_call name="write_file">`, 10000), 1000, CodeIncomplete, 10000},
		{"10,000 openers without >", strings.Repeat(`<tool_call `, 10000), 1000, CodeMalformed, -1},
		{"CDATA opener 100,000 times in a call", `<tool_call name="write_file"><content>` + strings.Repeat("<![CDATA[", 100000), 4096, CodeIncomplete, 1},
		{"CDATA opener 100,000 times in prose", strings.Repeat("<![CDATA[", 100000), 4096, "", 0},
		{"parameter never closed", `<tool_call name="write_file"><content>` + strings.Repeat("x", 1<<20) + `</tool_call>`, 4096, CodeMalformed, 1},
		{"parameter never closed, stream ends", `<tool_call name="write_file"><content>` + strings.Repeat("x", 1<<20), 4096, CodeIncomplete, 1},
		{"20,000 undefined parameters, each closed then followed by text", nested.String(), 4096, CodeMalformed, 1},
		{"legacy never closed", `[TOOL:write_file:{"content":"` + strings.Repeat("}]", 1<<19), 4096, CodeIncomplete, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			finishes(t, func() {
				_, codes := feedAll(NewScanner(testLookup), tc.in, tc.chunk)
				if tc.wantCount >= 0 && tc.wantCode != "" && codes[tc.wantCode] != tc.wantCount {
					t.Errorf("%s errors = %d (all: %v), want %d", tc.wantCode, codes[tc.wantCode], codes, tc.wantCount)
				}
				if tc.wantCount < 0 && tc.wantCode != "" && codes[tc.wantCode] == 0 {
					t.Errorf("no %s error (all: %v)", tc.wantCode, codes)
				}
				if tc.wantCount == 0 && len(codes) != 0 {
					t.Errorf("errors %v, want none", codes)
				}
			})
		})
	}
}

// TestHundredMegabytesWithoutNewline checks that a 100 MB line streams
// through in bounded memory: prose is never buffered, and inside a call
// only the value itself is kept.
func TestHundredMegabytesWithoutNewline(t *testing.T) {
	if testing.Short() {
		t.Skip("100 MB input")
	}
	chunk := strings.Repeat("lorem ipsum < dolor & sit [amet] ", 2048) // 64 KiB, no newline
	finishes(t, func() {
		s := NewScanner(testLookup)
		for range 100 << 20 / len(chunk) {
			s.Feed(chunk)
			if len(s.carry) > maxOpener {
				t.Fatalf("scanner holds back %d bytes of prose", len(s.carry))
			}
		}
		if evs := s.Close(); len(evs) > 1 {
			t.Errorf("Close = %+v", evs)
		}
	})
	finishes(t, func() {
		s := NewScanner(testLookup)
		s.Feed(`<tool_call name="write_file"><file_path>big.txt</file_path><content>`)
		for range 100 << 20 / len(chunk) {
			s.Feed(chunk)
		}
		evs := s.Feed("</content></tool_call>")
		if len(evs) != 1 || evs[0].Call == nil || len(evs[0].Call.Args()["content"]) < 100<<20-len(chunk) {
			t.Fatalf("100 MB value did not come back whole")
		}
	})
}

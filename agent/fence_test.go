package agent

import (
	"strings"
	"testing"
)

func TestFenceFilter(t *testing.T) {
	const call = "\x00" // where the scanner reports a call
	for _, tc := range []struct {
		name, in, want string
	}{
		{"fenced call", "Let me read.\n```xml\n" + call + "\n```\nDone.", "Let me read.\n\nDone."},
		{"fence without language", "A\n```\n" + call + "\n```\n", "A\n\n"},
		{"indented fence", "A\n  ```xml\n" + call + "\n  ```\nB", "A\n\nB"},
		{"no fence", "A\n" + call + "\nB", "A\n\nB"},
		{"code block stays", "Look:\n```go\nfunc f() {}\n```\nok", "Look:\n```go\nfunc f() {}\n```\nok"},
		{"code block after a call stays", call + "\n```go\nx\n```\n", "\n```go\nx\n```\n"},
		{"fence at the very end stays", "Here:\n```", "Here:\n```"},
		{"two fenced calls", "```xml\n" + call + "\n```\n```xml\n" + call + "\n```\nend", "\n\nend"},
		{"crlf", "A\r\n```xml\r\n" + call + "\r\n```\r\nB", "A\r\n\r\nB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Feed it whole, and byte by byte: the result must not
			// depend on where the deltas are cut.
			for _, size := range []int{len(tc.in), 1, 2, 5} {
				f := &fenceFilter{}
				var got strings.Builder
				for _, part := range strings.SplitAfter(tc.in, call) {
					text, isCall := strings.CutSuffix(part, call)
					for len(text) > 0 {
						n := min(size, len(text))
						got.WriteString(f.text(text[:n]))
						text = text[n:]
					}
					if isCall {
						f.call()
					}
				}
				got.WriteString(f.flush())
				if got.String() != tc.want {
					t.Errorf("chunks of %d: got %q, want %q", size, got.String(), tc.want)
				}
			}
		})
	}
}

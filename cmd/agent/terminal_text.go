package main

import (
	"io"

	"github.com/agentcli/agent/internal/termtext"
)

// safeText makes model-controlled text safe to show on a terminal
// (termtext.Escape): every control character but newline and tab is
// written visibly, so that a file or message cannot move the cursor,
// erase a line or recolour the screen.
func safeText(s string) string { return termtext.Escape(s) }

// safeWriter passes everything written through safeText, for output that
// is all meant for a terminal (the demo).
type safeWriter struct{ w io.Writer }

func (s safeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, safeText(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

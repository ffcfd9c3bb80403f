package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestParseOnATerminalSaysItReadsStdin(t *testing.T) {
	var out, errOut bytes.Buffer
	io := &streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, stdinTTY: true}
	code := execute(t.Context(), io, []string{"parse"})
	if code != exitUsage || !strings.Contains(errOut.String(), "reads a model reply on standard input") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
}

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// With no terminal, `agent` alone cannot chat: it says so, points to
// `agent run` and prints the help, successfully.
func TestAgentWithoutTerminalPrintsHelp(t *testing.T) {
	var out, errOut bytes.Buffer
	io := &streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	if code := execute(context.Background(), io, nil); code != exitOK {
		t.Fatalf("exit %d; stderr: %s", code, errOut.String())
	}
	if !strings.Contains(errOut.String(), "agent run") {
		t.Errorf("stderr does not point to agent run: %q", errOut.String())
	}
	if !strings.Contains(out.String(), "chat") || !strings.Contains(out.String(), "Usage:") {
		t.Errorf("no help on stdout: %q", out.String())
	}
}

func TestChatFlagsChecked(t *testing.T) {
	var out, errOut bytes.Buffer
	io := &streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, stdinTTY: true, stdoutTTY: true}
	if code := execute(context.Background(), io, []string{"chat", "--continue", "--session", "x"}); code != exitUsage {
		t.Errorf("--continue with --session: exit %d, want %d", code, exitUsage)
	}
	if code := execute(context.Background(), io, []string{"chat", "--approval", "sometimes"}); code != exitUsage {
		t.Errorf("bad --approval: exit %d, want %d", code, exitUsage)
	}
}

package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestArgumentMistakesExitWithUsage(t *testing.T) {
	for _, args := range [][]string{
		// (restore with no id lists the change sets: backups_undo.txtar)
		{"backups", "restore", "a", "b"},
		{"parse", "extra"},
		{"version", "extra"},
		{"completion", "nope"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			io := &streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
			if code := execute(t.Context(), io, args); code != exitUsage {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitUsage, errOut.String())
			}
			if !strings.Contains(errOut.String(), "agent --help") {
				t.Errorf("stderr lacks the usage hint:\n%s", errOut.String())
			}
		})
	}
}

func TestCompletionStillWorks(t *testing.T) {
	for _, args := range [][]string{{"completion"}, {"completion", "bash"}} {
		var out, errOut bytes.Buffer
		io := &streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
		if code := execute(t.Context(), io, args); code != exitOK || out.Len() == 0 {
			t.Errorf("%v: exit %d, %d bytes out; stderr:\n%s", args, code, out.Len(), errOut.String())
		}
	}
}

package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestArgumentMistakesExitWithUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		help string // the command whose help the hint names
	}{
		// (restore with no id lists the change sets: backups_undo.txtar)
		{[]string{"backups", "restore", "a", "b"}, "agent backups restore"},
		{[]string{"parse", "extra"}, "agent parse"},
		{[]string{"version", "extra"}, "agent version"},
		{[]string{"completion", "nope"}, "agent completion"},
		{[]string{"run", "--bogus"}, "agent run"},
		{[]string{"nope"}, "agent"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			io := &streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
			if code := execute(t.Context(), io, tc.args); code != exitUsage {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitUsage, errOut.String())
			}
			if hint := "Run '" + tc.help + " --help' for usage.\n"; !strings.HasSuffix(errOut.String(), hint) {
				t.Errorf("stderr does not end with %q:\n%s", hint, errOut.String())
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

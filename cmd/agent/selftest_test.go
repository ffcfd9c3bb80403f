package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// startXDG is the configuration folder the tests started with.
var startXDG = os.Getenv("XDG_CONFIG_HOME")

// runAgent runs the agent's command line in-process. Unless the test
// chose a configuration folder, it gets one of its own: the developer's
// is neither read nor written (a backup signing key is made there on
// first use).
func runAgent(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	if os.Getenv("XDG_CONFIG_HOME") == startXDG {
		t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	}
	var out, errOut bytes.Buffer
	io := &streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	code := execute(t.Context(), io, args)
	return out.String(), errOut.String(), code
}

func TestSelfChecksPass(t *testing.T) {
	for _, name := range []string{"test-tools", "test-file-write", "test-combined-tools"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "proj")
			out, errOut, code := runAgent(t, name, "--dir", dir, "-v")
			if code != 0 || strings.Contains(out, "✗") {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
			if !strings.Contains(out, "0 failed") || !strings.Contains(out, "<tool_response") {
				t.Errorf("output lacks the summary or the -v responses:\n%s", out)
			}
			if _, err := os.Stat(dir); err != nil {
				t.Errorf("--dir project not kept: %v", err)
			}
		})
	}
}

func TestSelfCheckFailureExitsOne(t *testing.T) {
	d := &factory{io: &streams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	cmd := newSelfTestCmd(d, "test-broken", "a check that fails", "", func(ctx context.Context, st *selftest) {
		st.check("passes", true, "")
		st.check("fails", false, "because %s", "it must")
	})
	cmd.SetArgs(nil)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	cmd.SetOut(d.io.Out)
	err := cmd.ExecuteContext(t.Context())
	if exitCode(err) != exitFailed {
		t.Fatalf("exit code %d (%v), want %d", exitCode(err), err, exitFailed)
	}
	out := d.io.Out.(*bytes.Buffer).String()
	if !strings.Contains(out, "✓ passes") || !strings.Contains(out, "✗ fails: because it must") || !strings.Contains(out, "1 failed") {
		t.Errorf("output:\n%s", out)
	}
}

func TestSelfCheckRefusesNonEmptyDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.md"), []byte("my work\n"), 0o644)
	_, errOut, code := runAgent(t, "test-file-write", "--dir", dir)
	if code != exitUsage || !strings.Contains(errOut, "not empty") {
		t.Fatalf("exit %d, stderr %q; want a usage error", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "mine.md")); string(b) != "my work\n" {
		t.Error("user file touched")
	}
}

// TestCombinedSelfCheckCatchesABrokenLoop builds the agent with the loop's
// skip rule deliberately broken and expects test-combined-tools to fail:
// the self-check runs the loop users run, not a copy of it.
func TestCombinedSelfCheckCatchesABrokenLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the agent binary; run without -short")
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the backup key is made there
	bin := filepath.Join(t.TempDir(), "agent-broken")
	build := exec.Command("go", "build", "-tags", "agent_broken_skip_rule", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "test-combined-tools").CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitFailed {
		t.Fatalf("test-combined-tools against a broken loop: %v, want exit %d\n%s", err, exitFailed, out)
	}
	if !strings.Contains(string(out), "✗") || !strings.Contains(string(out), "skipped") {
		t.Errorf("the failed check does not name the skip rule:\n%s", out)
	}
}

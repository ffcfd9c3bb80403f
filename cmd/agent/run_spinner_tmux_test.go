package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// TestRunSpinnerTmux runs `agent run` in a real terminal (a tmux pane)
// against a slow fake Gemini server on 127.0.0.1: while the model is
// waited on a spinner counts the seconds on the screen, and once the
// answer is there nothing of it is left. With stderr redirected to a file
// nothing is drawn: the file has no escape codes. Under CI a missing tmux
// fails the test; elsewhere it skips.
func TestRunSpinnerTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is needed for the real-terminal tests (apt-get install tmux)")
		}
		t.Skip("tmux not installed")
	}
	bin, err := exec.LookPath("agent") // the test binary, as set up by TestMain
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewGeminiServer(t,
		llmtest.Say("The answer is 42.").WithDelay(2500*time.Millisecond),
		llmtest.Say("Quiet answer.").WithDelay(1500*time.Millisecond))
	socket := fmt.Sprintf("agent-spin-%d-%d", os.Getpid(), time.Now().UnixNano())
	tmux := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("tmux", append([]string{"-L", socket}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	script := fmt.Sprintf(`%[1]s run hi; echo "[exit $?]"; %[1]s run again 2>err.log; echo "[quiet $?]"; sleep 60`, bin)
	env := append([]string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "TERM=xterm-256color"}, srv.Env()...)
	args := append([]string{"-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "12", "-c", proj, "env", "-u", "NO_COLOR"}, env...)
	tmux(append(args, "sh", "-c", script)...)
	t.Cleanup(func() { exec.Command("tmux", "-L", socket, "kill-server").Run() })

	waitFor := func(what, text string) string {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			s := tmux("capture-pane", "-p")
			if strings.Contains(s, text) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s (%q); screen:\n%s", what, text, s)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitFor("the spinner with its seconds", "waiting for gemini-2.5-flash… 1 s")
	screen := waitFor("the first run's end", "[exit 0]")
	if !strings.Contains(screen, "The answer is 42.") {
		t.Errorf("no answer on the screen:\n%s", screen)
	}
	screen = waitFor("the second run's end", "[quiet 0]")
	for _, residue := range []string{"waiting for", "⠋", "⠙", "⠹", "…"} {
		if strings.Contains(screen, residue) {
			t.Errorf("the spinner left %q on the screen:\n%s", residue, screen)
		}
	}
	// The answer starts its line: the spinner's line was erased, not
	// written over.
	if !strings.Contains("\n"+screen, "\nThe answer is 42.\n") || !strings.Contains("\n"+screen, "\nQuiet answer.\n") {
		t.Errorf("answers not on lines of their own:\n%s", screen)
	}
	log, err := os.ReadFile(filepath.Join(proj, "err.log"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(string(log), "\x1b\r⠋") || strings.Contains(string(log), "waiting") {
		t.Errorf("stderr to a file got the spinner: %q", log)
	}
}

package chat

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

func TestTextareaPkg(t *testing.T) {
	if got := reflect.TypeOf(textarea.Model{}).PkgPath(); got != textareaPkg {
		t.Fatalf("textarea's package is %q, the chat forwards messages of %q", got, textareaPkg)
	}
}

func TestDarkFromEnv(t *testing.T) {
	for _, c := range []struct {
		in       string
		dark, ok bool
	}{
		{"15;0", true, true},
		{"0;15", false, true},
		{"0;default;15", false, true},
		{"7;8", true, true},
		{"0;7", false, true},
		{"", false, false},
		{"15", false, false},
		{"0;x", false, false},
		{"0;99", false, false},
	} {
		dark, ok := darkFromEnv(c.in)
		if dark != c.dark || ok != c.ok {
			t.Errorf("darkFromEnv(%q) = %t, %t; want %t, %t", c.in, dark, ok, c.dark, c.ok)
		}
	}
}

// fakeTmux puts a tmux on PATH that notes each run in the returned file
// and prints out.
func fakeTmux(t *testing.T, out string) (env []string, runs string) {
	dir := t.TempDir()
	runs = filepath.Join(dir, "runs")
	script := "#!/bin/sh\necho \"$@\" >> " + runs + "\nprintf '%s' '" + out + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return []string{"PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")}, runs
}

func TestTerminalProfile(t *testing.T) {
	tty := []string{"TTY_FORCE=1", "TERM=xterm-256color", "TMUX=/tmp/tmux-0/default,1,0"}
	for _, c := range []struct {
		name  string
		env   []string
		want  colorprofile.Profile
		check bool
	}{
		{"tmux", tty, colorprofile.ANSI256, true},
		{"tmux, xterm", append(tty, "TERM=xterm"), colorprofile.ANSI256, true},
		{"tmux, NO_COLOR", append(tty, "NO_COLOR=1"), colorprofile.ASCII, false},
		{"tmux, COLORTERM", append(tty, "COLORTERM=truecolor"), colorprofile.TrueColor, false},
		{"tmux, dumb", append(tty, "TERM=dumb"), colorprofile.NoTTY, false},
		{"tmux, no terminal", []string{"TERM=xterm-256color", "TMUX=x"}, colorprofile.NoTTY, false},
		{"no tmux", tty[:2], colorprofile.ANSI256, false},
	} {
		env, runs := fakeTmux(t, "")
		t.Setenv("PATH", env[0][len("PATH="):])
		p, check := terminalProfile(&bytes.Buffer{}, c.env)
		if p != c.want || check != c.check {
			t.Errorf("%s: profile %v, check %t; want %v, %t", c.name, p, check, c.want, c.check)
		}
		if !c.check && p != colorprofile.Detect(&bytes.Buffer{}, c.env) {
			t.Errorf("%s: profile %v, colorprofile.Detect says %v", c.name, p, colorprofile.Detect(&bytes.Buffer{}, c.env))
		}
		if _, err := os.Stat(runs); err == nil {
			t.Errorf("%s: tmux was run", c.name)
		}
	}
}

func TestTmuxTrueColor(t *testing.T) {
	for _, c := range []struct {
		info string
		want tea.Msg
	}{
		{"  Tc: (flag) true\n", tea.CapabilityMsg{Content: "RGB"}},
		{"  RGB: (flag) true\n", tea.CapabilityMsg{Content: "RGB"}},
		{"  Tc: [missing]\n", nil},
	} {
		env, runs := fakeTmux(t, c.info)
		tmux := filepath.Join(strings.Split(env[0][len("PATH="):], ":")[0], "tmux")
		if got := tmuxTrueColor(context.Background(), tmux, nil)(); got != c.want {
			t.Errorf("tmux info %q: %v, want %v", c.info, got, c.want)
		}
		if b, _ := os.ReadFile(runs); string(b) != "info\n" {
			t.Errorf("tmux ran with %q, want info", b)
		}
	}
}

// TestInitRunsNoTmux starts this test binary inside a "tmux" with a
// terminal forced: lipgloss's init must not run `tmux info`, and TMUX is
// in the environment again when main starts.
func TestInitRunsNoTmux(t *testing.T) {
	if os.Getenv("AGENT_TUI_INIT_CHILD") != "" {
		if got := os.Getenv("TMUX"); got != "/tmp/tmux-0/default,1,0" {
			t.Fatalf("TMUX is %q after init", got)
		}
		return
	}
	env, runs := fakeTmux(t, "")
	cmd := exec.Command(os.Args[0], "-test.run=^TestInitRunsNoTmux$")
	cmd.Env = append(os.Environ(), append(env, "AGENT_TUI_INIT_CHILD=1", "TTY_FORCE=1",
		"TERM=xterm-256color", "TMUX=/tmp/tmux-0/default,1,0", "COLORTERM=", "NO_COLOR=")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(runs); err == nil {
		t.Fatalf("tmux ran during init: %q", b)
	}
}

// TestPrintedFollowsProfile: what goes into the scrollback has the
// terminal's colours (none with NO_COLOR), as the frame has.
func TestPrintedFollowsProfile(t *testing.T) {
	for _, c := range []struct {
		profile colorprofile.Profile
		sgr     string // a colour sequence that must be there
		not     string // and one that must not
	}{
		{colorprofile.TrueColor, "38;2;", "38;5;"},
		{colorprofile.ANSI256, "38;5;", "38;2;"},
		{colorprofile.ASCII, "\x1b[1m", "38;"},
	} {
		b := newTestConv(t, reply("Here is **bold** and `code`.\n"))
		h := newHarness(t, b, Options{})
		h.feed(tea.ColorProfileMsg{Profile: c.profile})
		h.say("colours?")
		h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "code") })
		// The banner was printed before the profile came.
		out := h.m.Printed()
		out = out[strings.Index(out, "colours?"):]
		if !strings.Contains(out, c.sgr) || strings.Contains(out, c.not) {
			t.Errorf("profile %v: printed %q; want %q and no %q", c.profile, out, c.sgr, c.not)
		}
	}
}

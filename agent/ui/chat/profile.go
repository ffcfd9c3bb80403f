package chat

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"golang.org/x/term"

	"github.com/agentcli/agent/agent/startup/quiet"
)

// lipgloss has initialised by now (this package imports it): TMUX goes
// back into the environment. See package quiet.
func init() { quiet.Restore() }

// terminalProfile is the colour profile Bubble Tea would detect for out,
// without the `tmux info` it would run first: inside tmux the answer is
// at least 256 colours, and check says whether tmux may pass true colour,
// which tmuxTrueColor learns after the first frame (settledMsg).
func terminalProfile(out io.Writer, env []string) (p colorprofile.Profile, check bool) {
	var noTmux []string
	inTmux := false
	for _, e := range env {
		if strings.HasPrefix(e, "TMUX=") {
			inTmux = len(e) > len("TMUX=")
			continue
		}
		noTmux = append(noTmux, e)
	}
	p = colorprofile.Detect(out, noTmux)
	if !inTmux || p == colorprofile.TrueColor {
		return p, false
	}
	// The conditions under which colorprofile.Detect asks tmux.
	get := func(k string) (string, bool) {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], k+"="); ok {
				return v, true
			}
		}
		return "", false
	}
	flag := func(k string) bool { v, _ := get(k); b, _ := strconv.ParseBool(v); return b }
	tty := flag("TTY_FORCE")
	if f, ok := out.(interface{ Fd() uintptr }); ok && !tty {
		tty = term.IsTerminal(int(f.Fd()))
	}
	t, ok := get("TERM")
	if !tty || !ok || t == "dumb" || flag("NO_COLOR") {
		return p, false
	}
	return max(p, colorprofile.ANSI256), true
}

// tmuxTrueColor asks tmux (the program at path), as colorprofile does,
// whether it passes true colour; if so the program's profile is raised
// (Bubble Tea does that on an RGB capability).
func tmuxTrueColor(ctx context.Context, path string, env []string) tea.Cmd {
	return func() tea.Msg {
		cmd := exec.CommandContext(ctx, path, "info")
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			return nil
		}
		for line := range bytes.SplitSeq(out, []byte("\n")) {
			if (bytes.Contains(line, []byte("Tc")) || bytes.Contains(line, []byte("RGB"))) && bytes.Contains(line, []byte("true")) {
				return tea.CapabilityMsg{Content: "RGB"}
			}
		}
		return nil
	}
}

// darkFromEnv reads the background from COLORFGBG ("fg;bg", set by rxvt,
// Konsole and others): the first frame is drawn with it, before the
// terminal answers the background-colour query (or when it never does).
func darkFromEnv(colorfgbg string) (dark, ok bool) {
	i := strings.LastIndexByte(colorfgbg, ';')
	if i < 0 {
		return false, false
	}
	bg, err := strconv.Atoi(colorfgbg[i+1:])
	if err != nil || bg < 0 || bg > 15 {
		return false, false
	}
	// 0-6 and 8 are the dark colours of the 16-colour palette.
	return bg <= 6 || bg == 8, true
}

package chat

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentcli/agent/tools/programs"
)

// The chat reads the clipboard on Ctrl+V itself, not through the
// textarea's own paste (github.com/atotto/clipboard), which runs wl-paste,
// xclip or xsel found on the plain PATH: with a project folder on PATH (an
// activated .venv/bin) one sandboxed command could leave an "xclip" there
// that would run outside the sandbox at the next Ctrl+V. Here the program
// is found by the trusted resolver and runs with its trusted PATH. The
// terminal's own paste (bracketed paste, Ctrl+Shift+V) arrives as a
// tea.PasteMsg and runs no program at all.

// clipboardTimeout bounds one run of the clipboard program (xclip waits
// for a selection owner that may hang).
const clipboardTimeout = 3 * time.Second

// clipboardErrMsg says why Ctrl+V pasted nothing.
type clipboardErrMsg struct{ err error }

// clipboardReaders are the programs that print the clipboard, the most
// fitting first: pbpaste on macOS, wl-paste under Wayland, then xclip and
// xsel under X.
func clipboardReaders(getenv func(string) string) [][]string {
	if runtime.GOOS == "darwin" {
		return [][]string{{"pbpaste"}}
	}
	var out [][]string
	if getenv("WAYLAND_DISPLAY") != "" {
		out = append(out, []string{"wl-paste", "--no-newline"})
	}
	return append(out, []string{"xclip", "-out", "-selection", "clipboard"}, []string{"xsel", "--output", "--clipboard"})
}

// readClipboard runs the first clipboard program progs finds (never one
// in a folder a sandboxed command may write) with progs's trusted PATH,
// and returns what it printed.
func readClipboard(ctx context.Context, progs *programs.Resolver, environ []string, getenv func(string) string) (string, error) {
	var names []string
	for _, r := range clipboardReaders(getenv) {
		names = append(names, r[0])
		path, err := progs.Find(r[0])
		if err != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(ctx, clipboardTimeout)
		cmd := exec.CommandContext(ctx, path, r[1:]...)
		cmd.Env = progs.Environ(environ)
		out, err := cmd.Output()
		cancel()
		if err != nil {
			return "", fmt.Errorf("paste: %s: %w", r[0], err)
		}
		return string(out), nil
	}
	return "", errors.New("paste: no " + strings.Join(names, ", ") + " found outside the project's folders; paste with your terminal's own key (often Ctrl+Shift+V)")
}

// pasteClipboard is Ctrl+V: the clipboard's text, pasted as the
// terminal's own paste would be.
func (m *Model) pasteClipboard() tea.Cmd {
	ctx, progs := m.ctx, m.programs()
	return func() tea.Msg {
		text, err := readClipboard(ctx, progs, os.Environ(), os.Getenv)
		if err != nil {
			return clipboardErrMsg{err}
		}
		return tea.PasteMsg{Content: text}
	}
}

// programs is the resolver of the programs the chat runs itself.
func (m *Model) programs() *programs.Resolver {
	if m.opts.Programs != nil {
		return m.opts.Programs
	}
	return programs.New(programs.Options{Path: os.Getenv("PATH")})
}

// helperEnv is the environment of the programs the chat starts outside
// the sandbox (the editor, tmux): the agent's, with the trusted PATH.
func (m *Model) helperEnv() []string { return m.programs().Environ(os.Environ()) }

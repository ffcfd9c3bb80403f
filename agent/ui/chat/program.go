package chat

import (
	"context"
	"errors"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/agentcli/agent/agent/startup"
)

// frameRate is the renderer's most frames a second. The first frame, and
// a typed key, wait for the next frame: at 120 that is at most 8 ms, at
// Bubble Tea's default of 60 twice as long. A frame is drawn only when the
// view changed, so an idle chat costs no more.
const frameRate = 120

// Run runs the chat on the terminal (in and out) until the user quits or
// ctx ends. The conversation stays in the terminal's scrollback.
//
// Nothing here waits on the terminal before the first frame: the colour
// profile comes from the environment and terminfo (tmux's true colour is
// asked after the first frame), the background from COLORFGBG until the
// terminal answers its query.
func Run(ctx context.Context, m *Model, in io.Reader, out io.Writer) error {
	defer m.Close()
	defer startup.ResumeGC()
	env := os.Environ()
	profile, check := terminalProfile(out, env)
	m.tmuxCheck, m.profile = check, profile
	if dark, ok := darkFromEnv(os.Getenv("COLORFGBG")); ok {
		m.setDark(dark)
	}
	m.prepaint(out)
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out),
		tea.WithEnvironment(env), tea.WithColorProfile(profile), tea.WithFPS(frameRate))
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

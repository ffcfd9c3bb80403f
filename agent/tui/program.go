package tui

import (
	"context"
	"errors"
	"io"

	tea "charm.land/bubbletea/v2"
)

// Run runs the chat on the terminal (in and out) until the user quits or
// ctx ends. The conversation stays in the terminal's scrollback.
func Run(ctx context.Context, m *Model, in io.Reader, out io.Writer) error {
	defer m.Close()
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out))
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

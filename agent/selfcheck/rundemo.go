package selfcheck

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
)

// DemoOptions say how agent demo-chat-tools runs.
type DemoOptions struct {
	// Live uses the configured model (Provider, Model override it)
	// instead of the scripted one.
	Live            bool
	Provider, Model string
	// Keep keeps the temporary project; Verbose shows the system prompt
	// and each tool response whole.
	Keep, Verbose bool
}

// RunDemo runs the demo in a new temporary project built by b, printing
// to w (which the caller makes safe for the terminal), and says where
// the project is kept or that it was removed.
func RunDemo(ctx context.Context, b *app.Builder, w io.Writer, do DemoOptions) error {
	dir, err := os.MkdirTemp("", "agent-demo-")
	if err != nil {
		return fmt.Errorf("create the demo project: %w", err)
	}
	if !do.Keep {
		defer os.RemoveAll(dir)
	}
	if err := WriteDemoProject(dir); err != nil {
		return err
	}
	co := conversation.Options{
		Dir: dir,
		// Nothing is at stake in a temporary project.
		Policy: agent.PolicyAuto,
	}
	if do.Live {
		co.Flags = config.Flags{Provider: do.Provider, Model: do.Model}
	} else {
		co.Model = DemoModel()
		co.System = "(the scripted model needs no system prompt)"
	}
	conv, err := b.New(ctx, co)
	if err != nil {
		return err
	}
	defer conv.Close()
	if err := Demo(ctx, conv, w, do.Verbose); err != nil {
		return err
	}
	if do.Keep {
		fmt.Fprintf(w, "\nthe project is kept in %s (session log: %s)\n", dir, relTo(dir, conv.SessionPath()))
	} else {
		fmt.Fprintln(w, "\nthe temporary project was removed (keep it with --keep)")
	}
	return nil
}

// relTo is p relative to base, or p when it cannot be.
func relTo(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil {
		return r
	}
	return p
}

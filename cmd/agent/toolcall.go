package main

import (
	"github.com/agentcli/agent/agent/app"
	"github.com/spf13/cobra"
)

// newToolCallCmd is a hidden command that runs tool calls from the command
// line in one conversation, the way the agent runs a model's calls, and
// prints the <tool_response> blocks. It exists for benchmarks and
// debugging: a whole-process measurement of one tool call.
//
//	agent tool-call [--dir D] NAME k=v ... [+ NAME k=v ...]
//
// A value k=@path is read from the file path. --state FILE keeps what the
// model "read" between runs, as a continued conversation does, so that a
// read in one run and a write in the next measure the write alone.
func newToolCallCmd(d *factory) *cobra.Command {
	var (
		dir, state string
		quiet      bool
	)
	cmd := &cobra.Command{
		Use:    "tool-call NAME [key=value ...] [+ NAME key=value ...]",
		Short:  "Run tool calls directly, without a model (for benchmarks)",
		Hidden: true,
		Args:   cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			calls, err := app.CallsFromArgs(args)
			if err != nil {
				return usageError{err}
			}
			root, err := projectFolder(dir)
			if err != nil {
				return err
			}
			cfg, err := d.localConfig(root)
			if err != nil {
				return err
			}
			reg, save, err := d.builder().ToolSession(cmd.Context(), root, cfg, state)
			if err != nil {
				return err
			}
			defer func() {
				if serr := save(); serr != nil && err == nil {
					err = serr
				}
			}()
			failed, err := app.RunCalls(cmd.Context(), reg, calls, quiet, d.io.Out)
			if err != nil {
				return err
			}
			if failed {
				return exitError{code: exitFailed}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "leave the content out of the printed responses")
	cmd.Flags().StringVar(&state, "state", "", "load and save the file tools' session state (what was read) in this file, to continue across processes")
	return cmd
}

package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
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
			calls, err := parseToolCallArgs(args)
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
			changeSet := fsedit.NewChangeSetID(time.Now())
			failed := false
			for i, c := range calls {
				c.ID = fmt.Sprint(i + 1)
				ctx := tools.WithInfo(cmd.Context(), tools.CallInfo{CallID: c.ID, ChangeSet: changeSet})
				res, err := reg.Call(ctx, c.Name, c.Args())
				if err != nil {
					return err
				}
				failed = failed || res.IsError()
				r := agent.CallResult{ID: c.ID, Tool: c.Name, Params: c.Params, Result: res}.Response()
				if quiet {
					r.Content = ""
				}
				if err := xmlcall.Render(d.io.Out, r); err != nil {
					return err
				}
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

func parseToolCallArgs(args []string) ([]xmlcall.Call, error) {
	var calls []xmlcall.Call
	start := true
	for _, a := range args {
		switch {
		case a == "+":
			start = true
		case start:
			calls = append(calls, xmlcall.Call{Name: a})
			start = false
		default:
			k, v, ok := strings.Cut(a, "=")
			if !ok {
				return nil, fmt.Errorf("argument %q is not key=value", a)
			}
			if path, ok := strings.CutPrefix(v, "@"); ok {
				b, err := os.ReadFile(path)
				if err != nil {
					return nil, err
				}
				v = string(b)
			}
			c := &calls[len(calls)-1]
			c.Params = append(c.Params, xmlcall.Param{Name: k, Value: v})
		}
	}
	if len(calls) == 0 {
		return nil, fmt.Errorf("no tool named")
	}
	return calls, nil
}

package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/ui/run"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/spf13/cobra"
)

func newParseCmd(d *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "parse",
		Short: "Parse one model reply from standard input and print its tool calls as JSON",
		Long: `parse reads one model reply on standard input and prints one JSON object:
the tool calls in order of appearance, with their parameter values as parsed
(before per-parameter whitespace normalisation), and the errors for broken
calls (cut off before </tool_call>, or unreadable).

It is the protocol's reference test: it shows exactly what the agent would
run for a given reply, without running anything.`,
		Example: `  printf '<tool_call name="read_file"><file_path>README.md</file_path></tool_call>' | agent parse`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if d.io.stdinTTY {
				// Waiting on the keyboard looks like a hang.
				return usageErrorf("parse reads a model reply on standard input: pipe one in, e.g. agent parse < reply.txt")
			}
			in, err := io.ReadAll(io.LimitReader(d.io.In, run.MaxStdin+1))
			if err != nil {
				return fmt.Errorf("read standard input: %w", err)
			}
			if len(in) > run.MaxStdin {
				return usageErrorf("standard input is over %d MiB; a model reply is far smaller", run.MaxStdin>>20)
			}
			// The built-in catalog with default settings: what the
			// scanner needs is the tools' parameter names, and a
			// project's configuration must not change how a reply reads.
			set, err := d.catalog(cmd.Context(), ".", config.Defaults())
			if err != nil {
				return err
			}
			defer set.Close()
			calls, errs := xmlcall.Parse(string(in), set.Registry().ParamNames)
			enc := json.NewEncoder(d.io.Out)
			enc.SetEscapeHTML(false)
			return enc.Encode(xmlcall.NewReport(calls, errs))
		},
	}
}

package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/tools/lsp"
)

func newLSPCmd(d *factory) *cobra.Command {
	var dir string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "List the language servers, their state and last diagnostics",
		Long: `lsp lists the language servers of the project: those that start on the first
read or write of a file they serve (their program found on the trusted PATH),
those whose program is not there, and those [lsp] turns off. For each server
the last conversation in the project ran, it shows the state that
conversation left it in and the errors of its last check.

Servers are configured in [lsp] and [lsp.NAME] (see docs/lsp.md).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := projectFolder(dir)
			if err != nil {
				return err
			}
			cfg, err := d.localConfig(root)
			if err != nil {
				return err
			}
			list, when := app.LSPStatus(cfg, root, d.programs(root, cfg))
			if asJSON {
				enc := json.NewEncoder(d.io.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(map[string]any{"servers": list, "last_conversation": when})
			}
			lsp.WriteStatus(d.io.Out, list)
			if !when.IsZero() {
				fmt.Fprintf(d.io.Out, "(last conversation's servers as of %s)\n", when.Local().Format("2006-01-02 15:04"))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

package main

import (
	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/agent/ui/catalog"
)

func newLSPCmd(d *factory) *cobra.Command {
	var dir string
	var asJSON bool
	cmd := &cobra.Command{Use: "lsp", Short: "List the language servers, their state and last errors", Args: cobra.NoArgs,
		Long: `lsp lists the project's language servers ([lsp], docs/lsp.md): those that can
start, those whose program is missing, those turned off, and the state and
last errors of those the last conversation in the project ran.`,
		RunE: func(*cobra.Command, []string) error {
			root, err := projectFolder(dir)
			if err != nil {
				return err
			}
			cfg, err := d.localConfig(root)
			if err != nil {
				return err
			}
			list, when := app.LSPStatus(cfg, root, d.programs(root, cfg))
			return catalog.LSP(d.io.Out, list, when, asJSON)
		}}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

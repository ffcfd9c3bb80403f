package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/ui/catalog"
)

// toolsOptions are the flags of agent tools.
type toolsOptions struct {
	json bool
	dir  string
}

// newToolsCmd is `agent tools`; runF, when set, runs instead.
func newToolsCmd(d *factory, runF func(*toolsOptions) error) *cobra.Command {
	o := &toolsOptions{}
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List the tools the model can call",
		Long: `tools lists the catalog of tools the model is offered: each tool's name,
whether it changes files (and so needs approval), and its parameters
(* marks a required one). --json prints the full definitions, with
descriptions, kinds and enum values. --dir names the project (its MCP
servers and settings count).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return runTools(cmd.Context(), d, o)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print the full definitions as JSON")
	cmd.Flags().StringVar(&o.dir, "dir", "", "project folder (default: the current folder)")
	return cmd
}

// runTools prints the catalog of the project in o.dir (default: the
// current folder).
func runTools(ctx context.Context, d *factory, o *toolsOptions) error {
	root, err := projectFolder(o.dir)
	if err != nil {
		return err
	}
	cfg, err := d.localConfig(root)
	if err != nil {
		return err
	}
	set, err := d.catalog(ctx, root, cfg)
	if err != nil {
		return err
	}
	defer set.Close()
	reg := set.Registry()
	if o.json {
		return catalog.CatalogJSON(d.io.Out, reg)
	}
	return catalog.Catalog(d.io.Out, reg)
}

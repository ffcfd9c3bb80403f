package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/tools"
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
		enc := json.NewEncoder(d.io.Out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(catalogJSON(reg))
	}
	tw := tabwriter.NewWriter(d.io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tWRITES\tPARAMETERS\tDESCRIPTION")
	for _, t := range reg.Tools() {
		def := t.Definition()
		writes := "no"
		if def.Writes {
			writes = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", def.Name, writes, paramSummary(def), firstSentence(def.Description))
	}
	return tw.Flush()
}

func paramSummary(def tools.Definition) string {
	parts := make([]string, len(def.Params))
	for i, p := range def.Params {
		parts[i] = p.Name
		if p.Required {
			parts[i] += "*"
		}
	}
	return strings.Join(parts, " ")
}

// firstSentence keeps a table row short: the description up to its first
// sentence end or line break.
func firstSentence(s string) string { return conversation.FirstSentence(s) }

type paramJSON struct {
	Name        string   `json:"name"`
	Kind        string   `json:"kind"`
	Required    bool     `json:"required"`
	Verbatim    bool     `json:"verbatim,omitempty"`
	Enum        []string `json:"enum,omitempty"`
	Description string   `json:"description,omitempty"`
}

type toolJSON struct {
	Name        string      `json:"name"`
	Description string      `json:"description"`
	Writes      bool        `json:"writes"`
	Params      []paramJSON `json:"params"`
}

func catalogJSON(reg *tools.Registry) []toolJSON {
	out := []toolJSON{}
	for _, t := range reg.Tools() {
		def := t.Definition()
		tj := toolJSON{Name: def.Name, Description: def.Description, Writes: def.Writes, Params: []paramJSON{}}
		for _, p := range def.Params {
			tj.Params = append(tj.Params, paramJSON{Name: p.Name, Kind: p.Kind.String(), Required: p.Required,
				Verbatim: p.Verbatim, Enum: p.Enum, Description: p.Description})
		}
		out = append(out, tj)
	}
	return out
}

package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/internal/termtext"
)

func newSessionsCmd(d *factory) *cobra.Command {
	var (
		dir    string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List this project's conversations (to continue one with --session ID)",
		Long: `sessions lists the conversations recorded under .agent/sessions, oldest
first: the id, when it was last written, its first prompt and how many
prompts it has. 'agent run --session ID' continues one, '--continue' the
last.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := projectFolder(dir)
			if err != nil {
				return err
			}
			list, err := agent.ListSessions(root)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(d.io.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(list)
			}
			if len(list) == 0 {
				fmt.Fprintln(d.io.Out, "no sessions yet")
				return nil
			}
			tw := tabwriter.NewWriter(d.io.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tTIME\tTURNS\tFIRST PROMPT")
			for _, s := range list {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", s.ID, s.Time.Local().Format("2006-01-02 15:04:05"), s.Turns, safeText(termtext.Clip(termtext.OneLine(s.FirstPrompt), 60)))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the sessions as JSON")
	return cmd
}

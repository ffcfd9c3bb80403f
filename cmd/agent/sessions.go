package main

import (
	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/ui/run"
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
			return run.Sessions(d.io.Out, list, asJSON)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the sessions as JSON")
	return cmd
}

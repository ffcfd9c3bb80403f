package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/conversation"
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
last; 'agent sessions export ID' prints one as Markdown.`,
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
	cmd.AddCommand(newSessionsExportCmd(d))
	return cmd
}

func newSessionsExportCmd(d *factory) *cobra.Command {
	var (
		dir, file string
		force     bool
	)
	cmd := &cobra.Command{
		Use:   "export [ID]",
		Short: "Print a conversation as Markdown (the last one when no ID is given)",
		Long: `export prints a conversation of this project as Markdown: each prompt, the
model's answers, and each tool call with its parameters and its result
cut to a few lines, terminal control characters stripped. It holds what
the session holds, secrets a command printed included. -o writes a file
(readable by you only), and replaces one only with --force.`,
		Example: `  agent sessions export > conversation.md
  agent sessions export 20260102-150405-1a2b3c4d -o review.md`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			root, err := projectFolder(dir)
			if err != nil {
				return err
			}
			id, err := conversation.ExportSession(d.io.Out, root, strings.Join(args, ""), file, force)
			if err == nil && file != "" {
				fmt.Fprintf(d.io.ErrOut, "agent: wrote session %s to %s\n", id, file)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	cmd.Flags().StringVarP(&file, "output", "o", "", "write the Markdown to this file instead of standard output")
	cmd.Flags().BoolVar(&force, "force", false, "replace the file -o names when it exists")
	return cmd
}

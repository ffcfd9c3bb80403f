package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/ui/run"
	"github.com/agentcli/agent/internal/atomicfile"
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

// exportOptions are the flags of `agent sessions export`.
type exportOptions struct {
	dir, output string
	force       bool
}

func newSessionsExportCmd(d *factory) *cobra.Command {
	o := &exportOptions{}
	cmd := &cobra.Command{
		Use:   "export [ID]",
		Short: "Print a conversation as Markdown (the last one when no ID is given)",
		Long: `export prints a conversation of this project as Markdown: each prompt, the
model's answers, and each tool call with its parameters and its result
cut to a few lines. It is the conversation as it stands (after a /rewind
without the turns taken back; after a compaction, from the summary on;
the session log keeps everything). Terminal control characters are
stripped; nothing else is changed, so the export holds what the session
holds, secrets a command printed included: share it with care.

Without an ID it exports the project's last conversation ('agent
sessions' lists them). -o writes a file instead (readable by you only),
and refuses to replace one unless --force is given. The chat's /export
writes the same Markdown beside the session log.`,
		Example: `  agent sessions export > conversation.md
  agent sessions export 20260102-150405-1a2b3c4d -o review.md`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.force && o.output == "" {
				return usageErrorf("--force replaces the file -o names; give -o FILE")
			}
			id := ""
			if len(args) == 1 {
				id = args[0]
			}
			return runExport(d, o, id)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.dir, "dir", "", "project folder (default: the current folder)")
	f.StringVarP(&o.output, "output", "o", "", "write the Markdown to this file instead of standard output")
	f.BoolVar(&o.force, "force", false, "replace the file -o names when it exists")
	return cmd
}

func runExport(d *factory, o *exportOptions, id string) error {
	root, err := projectFolder(o.dir)
	if err != nil {
		return err
	}
	if id == "" {
		if id, err = agent.LastSession(root); err != nil {
			return err
		}
	}
	s, err := agent.OpenSession(root, id)
	if errors.Is(err, agent.ErrNoSession) {
		return usageError{fmt.Errorf("%w ('agent sessions' lists this project's conversations)", err)}
	}
	if err != nil {
		return err
	}
	defer s.Close()
	write := func(w io.Writer) error { return conversation.ExportMarkdown(w, s, nil) }
	if o.output == "" {
		return write(d.io.Out)
	}
	if _, err := os.Lstat(o.output); err == nil && !o.force {
		return usageErrorf("%s exists; --force replaces it", o.output)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := atomicfile.WriteFile(o.output, 0o600, write); err != nil {
		return fmt.Errorf("export to %s: %w", o.output, err)
	}
	fmt.Fprintf(d.io.ErrOut, "agent: wrote session %s to %s\n", id, o.output)
	return nil
}

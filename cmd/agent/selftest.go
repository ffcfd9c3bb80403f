package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/selfcheck"
)

func newTestToolsCmd(d *factory) *cobra.Command {
	return newSelfTestCmd(d, "test-tools", "Check the file tools: read, list, search and the sandbox",
		`test-tools builds a small project and runs model replies through the same
parse, validate, execute and render path the agent uses: listing, reading
whole files and ranges, searching, the legacy [TOOL:...] form, and the
errors a model must get for a missing file, a path outside the project, a
protected folder, an unsupported type, an unknown tool or parameter.`, selfcheck.Tools)
}

func newTestFileWriteCmd(d *factory) *cobra.Command {
	return newSelfTestCmd(d, "test-file-write", "Check write_file: create, rewrite, partial writes, guards, backups and undo",
		`test-file-write checks every operation of write_file in a small project:
create (with parent folders), rewrite and partial writes (replace, insert,
append), kept line endings and permissions, backups with their manifest,
the refusals a model must get (an existing file, a write without a read, a
file changed on disk, a placeholder rewrite, a bad range), and undo.`, selfcheck.FileWrite)
}

func newTestCombinedCmd(d *factory) *cobra.Command {
	return newSelfTestCmd(d, "test-combined-tools", "Check a whole workflow from raw model text: calls, CDATA, errors, undo",
		`test-combined-tools starts from raw model replies, as a model writes them:
prose around several XML calls, a fenced call, CDATA holding markup and
"]]>", a deliberate error that makes the next write of the same reply be
skipped, and a call cut off before </tool_call> that must never run. It
checks the files, the rendered <tool_response> blocks, and that undo
reverts the reply that wrote.`, selfcheck.Combined)
}

func newSelfTestCmd(d *factory, name, short, long string, run selfcheck.Scenario) *cobra.Command {
	var (
		verbose, keep bool
		dir           string
	)
	cmd := &cobra.Command{
		Use:   name,
		Short: short,
		Long: long + `

Each check prints ✓ or ✗; -v also prints each model reply and the
<tool_response> blocks it got. The project is a fresh temporary folder,
removed afterwards unless --keep; --dir runs in the given folder instead,
which must be empty or not exist yet, and keeps it. The exit status is 1
if any check failed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, cleanup, err := selfcheck.Folder(name, dir, keep)
			if errors.Is(err, selfcheck.ErrNotEmpty) {
				return usageErrorf("--dir %s is not empty; the self-check writes files there, so give it an empty or new folder", dir)
			}
			if err != nil {
				return err
			}
			defer cleanup()
			failed, err := selfcheck.Run(cmd.Context(), d.builder(), name, dir, verbose, d.io.Out, run)
			if err != nil {
				return err
			}
			if failed > 0 {
				return exitError{code: exitFailed}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVarP(&verbose, "verbose", "v", false, "print each model reply and the rendered <tool_response> blocks")
	f.StringVar(&dir, "dir", "", "run in this folder (empty or new) instead of a temporary one, and keep it")
	f.BoolVar(&keep, "keep", false, "keep the temporary project afterwards")
	return cmd
}

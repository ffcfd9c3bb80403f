package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// newRootCmd builds the whole command tree. It is a constructor, not a
// global, so tests can build as many trees as they like.
func newRootCmd(d *factory) *cobra.Command {
	io := d.io
	root := &cobra.Command{
		Use:   "agent",
		Short: "A terminal coding and content agent",
		Long: `agent chats with a model (Gemini by default, any OpenAI-compatible server,
or Anthropic) that reads and edits the files of the project in the current
folder through XML tool calls, with backups before every overwrite.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
	}
	root.SetVersionTemplate("agent {{.Version}}\n")
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	root.PersistentFlags().BoolVar(&d.trust, "trust", false, "trust this project's settings (.agent/config.toml, .mcp.json) for this run")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(
		newVersionCmd(io),
		newParseCmd(d),
		newToolsCmd(d, nil),
		newSkillsCmd(d),
		newAgentsCmd(d),
		newHooksCmd(d),
		newRunCmd(d, nil),
		newChatCmd(d, nil),
		newDemoCmd(d, nil),
		newPromptCmd(d, nil),
		newBackupsCmd(d),
		newUndoCmd(d),
		newRedoCmd(d),
		newSessionsCmd(d),
		newInitCmd(d),
		newToolCallCmd(d),
		newTestToolsCmd(d),
		newTestFileWriteCmd(d),
		newTestCombinedCmd(d),
		newConfigCmd(d),
		newTTSCmd(d),
		newMCPCmd(d),
		newServeCmd(d, nil),
		newACPCmd(d, nil),
		newNotesCmd(d),
		newJobsCmd(d),
		newLSPCmd(d),
	)
	setRootChat(root, d)
	// Added now rather than at Execute so that it is marked too.
	root.InitDefaultCompletionCmd()
	markUsageErrors(root)
	registerCompletions(root, d)
	return root
}

// execute runs the command line args and returns the exit code. All
// user-facing error wording is decided here.
func execute(ctx context.Context, io *streams, args []string) int {
	root := newRootCmd(newFactory(io))
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	var ee exitError
	if errors.As(err, &ee) && ee.err == nil {
		return ee.code
	}
	msg := err.Error()
	if errors.Is(err, context.Canceled) {
		msg = "interrupted"
	}
	fmt.Fprintln(io.ErrOut, "agent: "+safeText(strings.TrimSpace(msg)))
	if isUsage(err) || strings.HasPrefix(msg, "unknown command") {
		fmt.Fprintln(io.ErrOut, helpHint(cmd))
		return exitUsage
	}
	return exitCode(err)
}

// helpHint points to the help of the command that was misused, so that
// `agent run --bogus` names `agent run --help`, not the root's.
func helpHint(cmd *cobra.Command) string {
	path := "agent"
	if cmd != nil {
		path = cmd.CommandPath()
	}
	return fmt.Sprintf("Run '%s --help' for usage.", path)
}

func newVersionCmd(io *streams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the agent's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(io.Out, "agent %s\n", version)
			return err
		},
	}
}

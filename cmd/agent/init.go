package main

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/ui/run"
)

// newInitCmd is `agent init`: the chat's /init as a one-shot run.
func newInitCmd(d *factory) *cobra.Command {
	o := &runOptions{io: d.io}
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Draft this project's AGENTS.md (or improve it) from a look at the project",
		Long: `init lets the model look at the project with the tools that change nothing
(the build and test commands of the Makefile, package.json, go.mod,
pyproject.toml, Cargo.toml and the CI files; the layout; the conventions)
and write AGENTS.md, asked about like any write: the diff, then y writes
it, backed up. An AGENTS.md already there is improved, not replaced.
Nothing else is written or run. With no terminal to ask and no --yes it
writes nothing and says so, before asking the model (exit 4). The exit
codes are agent run's.`,
		Example: `  agent init
  agent init --yes        # in a script: written without asking`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runInit(cmd.Context(), d, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.provider, "provider", "", config.ProviderFlagHelp())
	f.StringVar(&o.model, "model", "", "model name")
	f.IntVar(&o.maxIterations, "max-iterations", 0, "model calls allowed")
	f.StringVar(&o.dir, "dir", "", "project folder (default: the current folder)")
	f.BoolVarP(&o.yes, "yes", "y", false, "write AGENTS.md without asking")
	return cmd
}

func runInit(ctx context.Context, d *factory, o *runOptions) (err error) {
	if o.dir, err = d.workFolder(o.dir); err != nil {
		return err
	}
	conv, err := d.builder().New(ctx, o.conversation())
	if err != nil {
		return err
	}
	defer conv.Close()
	if !run.CanApprove(conv.Policy(), o.io.term()) {
		return exitError{code: exitRefused, err: errors.New("nobody can approve writing AGENTS.md here (no terminal to ask, or approval never), so nothing was written and the model was not asked; run agent init on a terminal, or with --yes")}
	}
	out, runErr, started := run.Run(ctx, conv, run.NewPrinter(run.FormatText, o.io.term()), o.io.term(), run.Request{Prompt: conv.PrepareInit()})
	if !started && errors.Is(runErr, run.ErrInterrupted) {
		return exitError{code: exitInterrupted, err: errInterrupted}
	} else if !started {
		return runErr
	}
	return runExit(ctx, out, runErr, o.io.ErrOut)
}

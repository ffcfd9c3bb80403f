package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/ui/run"
)

// initOptions are the flags of `agent init`.
type initOptions struct {
	io *streams

	dir, provider, model string
	maxIterations        int
	yes                  bool
}

// newInitCmd is `agent init`; runF, when set, runs instead.
func newInitCmd(d *factory, runF func(*initOptions) error) *cobra.Command {
	o := &initOptions{io: d.io}
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Draft this project's AGENTS.md (or improve it) from a look at the project",
		Long: `init lets the model look at the project with the tools that change nothing
(the build and test commands in the Makefile, package.json, go.mod,
pyproject.toml, Cargo.toml and the CI files; the layout; the conventions)
and draft AGENTS.md, the instructions every later conversation starts
from. An AGENTS.md already there is improved, not replaced. The file is
written like any write: the diff is shown and you are asked on the
terminal (y writes it, with the old content backed up: 'agent undo' takes
it back). Nothing else is written or run. The chat's /init does the same.

Without a terminal to ask and without --yes, init writes nothing and says
so, before asking the model anything (exit 4); --yes writes the draft
without asking.

Exit codes are agent run's: 0 done, 1 failed, 2 bad usage, 3 stopped at
the iteration limit, 4 the write refused by the approval policy (nobody
to ask), 130 interrupted.`,
		Example: `  agent init
  agent init --dir ~/src/project
  agent init --yes        # in a script: write the draft without asking`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("max-iterations") && o.maxIterations <= 0 {
				return usageErrorf("--max-iterations must be 1 or more, not %d", o.maxIterations)
			}
			if runF != nil {
				return runF(o)
			}
			return runInit(cmd.Context(), d, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.provider, "provider", "", config.ProviderFlagHelp())
	f.StringVar(&o.model, "model", "", "model name")
	f.IntVar(&o.maxIterations, "max-iterations", 0, fmt.Sprintf("model calls allowed (default %d)", agent.DefaultMaxIterations))
	f.StringVar(&o.dir, "dir", "", "project folder (default: the current folder)")
	f.BoolVarP(&o.yes, "yes", "y", false, "write AGENTS.md without asking")
	return cmd
}

func runInit(ctx context.Context, d *factory, o *initOptions) error {
	root, err := d.workFolder(o.dir)
	if err != nil {
		return err
	}
	var policy agent.Policy // the configured one
	if o.yes {
		policy = agent.PolicyAuto
	}
	conv, err := d.builder().New(ctx, conversation.Options{
		Dir:    root,
		Flags:  config.Flags{Provider: o.provider, Model: o.model, MaxIterations: o.maxIterations},
		Policy: policy,
	})
	if err != nil {
		return err
	}
	defer conv.Close()
	if err := initCanWrite(conv.Policy(), o.io.term()); err != nil {
		return exitError{code: exitRefused, err: err}
	}
	p := run.NewPrinter(run.FormatText, o.io.term())
	out, runErr, started := run.Run(ctx, conv, p, o.io.term(), run.Request{Prompt: conv.PrepareInit()})
	if !started {
		if errors.Is(runErr, run.ErrInterrupted) {
			return exitError{code: exitInterrupted, err: errInterrupted}
		}
		return runErr
	}
	return runExit(ctx, out, runErr, o.io.ErrOut)
}

// initCanWrite says why AGENTS.md could not be written under policy
// with the streams s, before the model is asked for a draft that would
// be thrown away: nil when it can be.
func initCanWrite(policy agent.Policy, s run.Streams) error {
	switch policy {
	case agent.PolicyAuto:
		return nil
	case agent.PolicyNever:
		return errors.New("the approval policy is never, so AGENTS.md could not be written: nothing was done (the model was not asked); agent init --yes writes it")
	}
	tin, _, closeTTY := run.ApprovalTerminal(s)
	closeTTY()
	if tin == nil {
		return errors.New("nobody is here to approve writing AGENTS.md, so nothing was written (the model was not asked); run agent init on a terminal, or with --yes to write the draft without asking")
	}
	return nil
}

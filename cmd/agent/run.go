package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/ui/run"
)

// runOptions are the flags and inputs of `agent run`.
type runOptions struct {
	io *streams

	prompt string
	// readPipe says standard input is read beside a prompt argument
	// (run.Request).
	readPipe      bool
	outputFormat  string
	provider      string
	model         string
	maxIterations int
	dir           string
	continueLast  bool
	sessionID     string
	yes           bool
	approval      string
	reasoning     string
	images        []string // --image files (run.AttachImages)
}

func newRunCmd(d *factory, runF func(*runOptions) error) *cobra.Command {
	o := &runOptions{io: d.io}
	cmd := &cobra.Command{
		Use:   "run [prompt]",
		Short: "Answer one request, reading and editing files as needed, then exit",
		Long: `Run sends one request to the model and lets it read and edit the files of
the project until it answers, then exits. The prompt comes from the
arguments or, when there are none, from standard input. With both, the
piped text follows the prompt in a fenced block (at most 256 KiB, cut at
a line end; a note says how much was cut). The run reads the pipe to its
end however late it starts (go test ./... 2>&1 | agent run "why?");
after 3 s without a byte it says so on stderr, and it gives up after
stdin_timeout (10m) of silence. Use </dev/null not to wait.

Writes need approval: on a terminal you are asked, otherwise they are
denied unless --yes (or --approval auto) allows them. A question of the
model (ask_user) is asked on the terminal too, --yes or not; with no
terminal it is answered at once that no one can answer.

Exit codes (when several apply, the first in this order wins: 130, 1, 2,
4, 3):
  0    answered (a truncated answer too, with a note)
  1    failed (the model or a tool failed, the reply was empty, or a call
       stopped the turn: folders the git guard could not check)
  2    bad usage (a flag, an unknown provider, the prompt)
  3    stopped at the iteration limit without an answer
  4    calls (writes, commands, fetches) were refused by the approval policy (rerun with --yes)
  130  interrupted (Ctrl+C)`,
		Example: `  agent run "summarise README.md"
  git diff | agent run --output-format json
  agent run --yes "add a changelog entry for the fix in parser.go"
  agent run --continue "now do the same for the tests"
  agent run --image shot.png "what is wrong with this layout?"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.complete(cmd, args); err != nil {
				if o.outputFormat == run.FormatJSON || o.outputFormat == run.FormatStreamJSON {
					// A script that asked for JSON gets it for bad
					// usage too: the error, and no answer.
					p := run.NewPrinter(o.outputFormat, o.io.term())
					p.Event(agent.Event{Type: agent.EventError, Err: err})
					_ = p.Finish(nil, err)
				}
				return err
			}
			if runF != nil {
				return runF(o)
			}
			return runRun(cmd.Context(), d, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.outputFormat, "output-format", run.FormatText, "text, json or stream-json")
	conversationFlags(cmd, o, "for this request")
	f.StringVar(&o.reasoning, "reasoning", "", "how much the model thinks first: off, low, medium or high")
	f.StringArrayVar(&o.images, "image", nil, run.ImageFlagHelp)
	return cmd
}

// conversationFlags are the flags of run and chat that choose the
// conversation: the model, its limit per message (per, in the help),
// the project, the session and the approval.
func conversationFlags(cmd *cobra.Command, o *runOptions, per string) {
	f := cmd.Flags()
	f.StringVar(&o.provider, "provider", "", config.ProviderFlagHelp())
	f.StringVar(&o.model, "model", "", "model name")
	f.IntVar(&o.maxIterations, "max-iterations", 0, fmt.Sprintf("model calls allowed %s (default %d)", per, agent.DefaultMaxIterations))
	f.StringVar(&o.dir, "dir", "", "project folder (default: the current folder)")
	f.BoolVarP(&o.continueLast, "continue", "c", false, "continue the last conversation in this project")
	f.StringVar(&o.sessionID, "session", "", "continue the conversation with this id")
	f.BoolVarP(&o.yes, "yes", "y", false, "allow writes without asking (same as --approval auto)")
	f.StringVar(&o.approval, "approval", "", "how writes are approved: ask, auto or never (default ask)")
}

// complete checks the flags and reads the prompt.
func (o *runOptions) complete(cmd *cobra.Command, args []string) error {
	switch o.outputFormat {
	case run.FormatText, run.FormatJSON, run.FormatStreamJSON:
	default:
		return usageErrorf("--output-format must be text, json or stream-json, not %q", o.outputFormat)
	}
	if o.continueLast && o.sessionID != "" {
		return usageErrorf("use --continue or --session, not both")
	}
	if o.reasoning != "" && !config.ValidReasoning(o.reasoning) {
		return usageErrorf("--reasoning must be off, low, medium or high, not %q", o.reasoning)
	}
	// 0 is the flag's "not given"; given, it must allow a model call.
	if cmd.Flags().Changed("max-iterations") && o.maxIterations <= 0 {
		return usageErrorf("--max-iterations must be 1 or more, not %d", o.maxIterations)
	}
	if o.approval != "" {
		if _, err := agent.ParsePolicy(o.approval); err != nil {
			return usageError{err}
		}
		if o.yes && o.approval != string(agent.PolicyAuto) {
			return usageErrorf("--yes means --approval auto; it cannot go with --approval %s", o.approval)
		}
	}
	if len(args) > 0 {
		o.prompt = strings.Join(args, " ")
		// Piped text goes with the prompt (`git diff | agent run
		// "review this"`); it is read once the configuration says how
		// long to wait for it (runRun).
		o.readPipe = !o.io.stdinTTY && o.io.In != nil
	} else {
		if o.io.stdinTTY {
			return usageErrorf("give a prompt as an argument or on standard input")
		}
		p, err := run.ReadPrompt(o.io.In)
		if err != nil {
			return err
		}
		o.prompt = p
	}
	if strings.TrimSpace(o.prompt) == "" {
		return usageErrorf("the prompt is empty")
	}
	return nil
}

// policy is the approval policy the flags ask for; "" leaves it to the
// configuration.
func (o *runOptions) policy() agent.Policy {
	if o.yes {
		return agent.PolicyAuto
	}
	return agent.Policy(o.approval)
}

func runRun(ctx context.Context, d *factory, o *runOptions) (err error) {
	p := run.NewPrinter(o.outputFormat, o.io.term())
	started := false
	defer func() {
		// A failure before the loop started still gives a script its
		// JSON: the error, and no answer.
		if err != nil && !started {
			p.Event(agent.Event{Type: agent.EventError, Err: err})
			_ = p.Finish(nil, err)
		}
	}()
	root, err := d.workFolder(o.dir)
	if err != nil {
		return err
	}
	o.dir = root
	conv, err := d.builder().New(ctx, o.conversation())
	if err != nil {
		return err
	}
	defer conv.Close()
	if err := run.AttachImages(ctx, conv, o.images); err != nil {
		return err
	}
	var out *agent.Outcome
	var runErr error
	req := run.Request{Prompt: o.prompt, ReadPipe: o.readPipe, Notice: d.stdinNotice}
	if out, runErr, started = run.Run(ctx, conv, p, o.io.term(), req); !started {
		if errors.Is(runErr, run.ErrInterrupted) {
			return exitError{code: exitInterrupted, err: errInterrupted}
		}
		return runErr
	}
	return runExit(ctx, out, runErr, o.io.ErrOut)
}

// runExit picks the run's exit: interrupted, failed, refused writes, the
// iteration limit, in that order (see the help's table).
func runExit(ctx context.Context, out *agent.Outcome, runErr error, errOut io.Writer) error {
	if ctx.Err() != nil || errors.Is(runErr, context.Canceled) || errors.Is(runErr, errInterrupted) {
		return exitError{code: exitInterrupted, err: errInterrupted}
	}
	if runErr != nil && !errors.Is(runErr, agent.ErrMaxIterations) {
		return runErr
	}
	if run.SayRefused(errOut, out) {
		return exitError{code: exitRefused}
	}
	if runErr != nil {
		// The printers have said so (stderr, or the JSON's "stopped").
		return exitError{code: exitMaxIterations}
	}
	return nil
}

// errInterrupted is how a cancelled run is reported.
var errInterrupted = run.ErrInterrupted

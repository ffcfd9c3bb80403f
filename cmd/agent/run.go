package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
)

// runOptions are the flags and inputs of `agent run`.
type runOptions struct {
	io *streams

	prompt        string
	outputFormat  string
	provider      string
	model         string
	maxIterations int
	dir           string
	continueLast  bool
	sessionID     string
	yes           bool
	approval      string

	// setup builds what the run needs from the configuration; tests
	// replace it to run against a scripted model.
	setup func(ctx context.Context, o *runOptions) (*runSetup, error)
}

// runSetup is what a run needs built: the model, the tools of the project
// and the system prompt, plus the configured defaults the flags override.
type runSetup struct {
	Model  llm.Model
	Tools  *tools.Registry
	System string
	// MaxIterations and Approval are the configured values; zero means
	// the default.
	MaxIterations int
	Approval      agent.Policy
	// Files is the file tools' session, whose knowledge of what the
	// model read is kept with the conversation; may be nil.
	Files *fsedit.Session
	// Close releases what setup opened; may be nil.
	Close func() error
}

func newRunCmd(d *deps, runF func(*runOptions) error) *cobra.Command {
	o := &runOptions{io: d.io, setup: d.setupRun}
	cmd := &cobra.Command{
		Use:   "run [prompt]",
		Short: "Answer one request, reading and editing files as needed, then exit",
		Long: `Run sends one request to the model and lets it read and edit the files of
the project until it answers, then exits. The prompt comes from the
arguments or, when there are none, from standard input.

Writes need approval: on a terminal you are asked, otherwise they are
denied unless --yes (or --approval auto) allows them.

Exit codes: 0 answered, 1 failed, 2 bad usage, 3 stopped at the iteration
limit without an answer.`,
		Example: `  agent run "summarise README.md"
  git diff | agent run --output-format json
  agent run --yes "add a changelog entry for the fix in parser.go"
  agent run --continue "now do the same for the tests"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.complete(cmd, args); err != nil {
				if o.outputFormat == formatJSON || o.outputFormat == formatStreamJSON {
					// A script that asked for JSON gets it for bad
					// usage too: the error, and no answer.
					p := newRunPrinter(o.outputFormat, o.io)
					p.event(agent.Event{Type: agent.EventError, Err: err})
					_ = p.finish(nil, err)
				}
				return err
			}
			if runF != nil {
				return runF(o)
			}
			return runRun(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.outputFormat, "output-format", formatText, "text, json or stream-json")
	f.StringVar(&o.provider, "provider", "", "model provider (gemini, openai, openrouter, venice, ollama, anthropic)")
	f.StringVar(&o.model, "model", "", "model name")
	f.IntVar(&o.maxIterations, "max-iterations", 0, fmt.Sprintf("model calls allowed for this request (default %d)", agent.DefaultMaxIterations))
	f.StringVar(&o.dir, "dir", "", "project folder (default: the current folder)")
	f.BoolVarP(&o.continueLast, "continue", "c", false, "continue the last conversation in this project")
	f.StringVar(&o.sessionID, "session", "", "continue the conversation with this id")
	f.BoolVarP(&o.yes, "yes", "y", false, "allow writes without asking (same as --approval auto)")
	f.StringVar(&o.approval, "approval", "", "how writes are approved: ask, auto or never (default ask)")
	return cmd
}

// complete checks the flags and reads the prompt.
func (o *runOptions) complete(cmd *cobra.Command, args []string) error {
	switch o.outputFormat {
	case formatText, formatJSON, formatStreamJSON:
	default:
		return usageErrorf("--output-format must be text, json or stream-json, not %q", o.outputFormat)
	}
	if o.continueLast && o.sessionID != "" {
		return usageErrorf("use --continue or --session, not both")
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
		// Standard input is not read when the prompt is given: in CI it
		// may be a pipe that never closes.
		o.prompt = strings.Join(args, " ")
	} else {
		if o.io.stdinTTY {
			return usageErrorf("give a prompt as an argument or on standard input")
		}
		b, err := io.ReadAll(o.io.In)
		if err != nil {
			return fmt.Errorf("read prompt from standard input: %w", err)
		}
		o.prompt = string(b)
	}
	if strings.TrimSpace(o.prompt) == "" {
		return usageErrorf("the prompt is empty")
	}
	return nil
}

// root returns the project folder, absolute.
func (o *runOptions) root() (string, error) { return projectFolder(o.dir) }

// session starts or resumes the conversation the flags ask for.
func (o *runOptions) session(root string) (*agent.Session, error) {
	id := o.sessionID
	if o.continueLast {
		last, err := agent.LastSession(root)
		if err != nil {
			return nil, usageError{fmt.Errorf("--continue: %w", err)}
		}
		id = last
	}
	if id == "" {
		return agent.NewSession(root), nil
	}
	s, err := agent.OpenSession(root, id)
	if errors.Is(err, agent.ErrNoSession) {
		return nil, usageError{err}
	}
	return s, err
}

// policy is the approval policy: the flags over the configuration.
func (o *runOptions) policy(configured agent.Policy) agent.Policy {
	switch {
	case o.yes:
		return agent.PolicyAuto
	case o.approval != "":
		return agent.Policy(o.approval)
	case configured != "":
		return configured
	}
	return agent.PolicyAsk
}

func runRun(ctx context.Context, o *runOptions) (err error) {
	p := newRunPrinter(o.outputFormat, o.io)
	started := false
	defer func() {
		// A failure before the loop started still gives a script its
		// JSON: the error, and no answer.
		if err != nil && !started {
			p.event(agent.Event{Type: agent.EventError, Err: err})
			_ = p.finish(nil, err)
		}
	}()
	root, err := o.root()
	if err != nil {
		return err
	}
	o.dir = root
	sess, err := o.session(root)
	if err != nil {
		return err
	}
	defer sess.Close()
	s, err := o.setup(ctx, o)
	if err != nil {
		return err
	}
	if s.Close != nil {
		defer s.Close()
	}
	if s.Files != nil {
		if err := loadFileState(s.Files, root, sess.ID); err != nil {
			return err
		}
	}
	audit := agent.NewAudit(root)
	defer audit.Close()

	a := &agent.Agent{
		Model:         s.Model,
		Tools:         s.Tools,
		Session:       sess,
		System:        s.System,
		MaxIterations: s.MaxIterations,
		Audit:         audit,
		Approval:      agent.Approval{Policy: o.policy(s.Approval)},
	}
	if o.maxIterations > 0 {
		a.MaxIterations = o.maxIterations
	}
	// Ask only when someone can answer: on standard input when it is a
	// terminal, else on the terminal itself when there is one.
	if a.Approval.Policy == agent.PolicyAsk {
		if in, closeIn := approvalInput(o.io); in != nil {
			defer closeIn()
			a.Approval.Ask = terminalAsker(o.io, in, root)
		}
	}

	started = true
	out, runErr := a.Run(ctx, o.prompt, p.event)
	if s.Files != nil && len(out.Calls) > 0 {
		if err := saveFileState(s.Files, root, sess.ID); err != nil && runErr == nil {
			runErr = err
		}
	}
	if err := p.finish(out, runErr); err != nil && runErr == nil {
		runErr = fmt.Errorf("write output: %w", err)
	}
	switch {
	case runErr == nil:
		return nil
	case errors.Is(runErr, agent.ErrMaxIterations):
		// The printers have said so (stderr, or the JSON's "stopped").
		return exitError{code: exitMaxIterations}
	}
	return runErr
}

package main

import (
	"context"
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/agent/ui/catalog"
	"github.com/agentcli/agent/prompt"
)

type promptOptions struct {
	dir    string
	stats  bool
	budget int
	style  string
	// budgetSet and styleSet say the flags were given.
	budgetSet, styleSet bool
}

// newPromptCmd is `agent prompt`; runF, when set, runs instead.
func newPromptCmd(d *factory, runF func(*promptOptions) error) *cobra.Command {
	o := &promptOptions{}
	cmd := &cobra.Command{
		Use:   "prompt",
		Short: "Print the system prompt the next run would send",
		Long: `Print the exact system prompt the next 'agent run' in the project folder would send:
role and rules, the tool-call protocol, the tool catalog, the environment, the
project's AGENTS.md (or GEMINI.md / CLAUDE.md), and the file tree.

The form fits the model's window: a window of 4k-8k tokens (a local server's
default) gets the small-window form, with the essential tools only. When the
configuration does not give the window, the model's server is asked (briefly).

--stats prints the size of each section in bytes and estimated tokens instead,
and which form was chosen and why.
--budget and --style preview the file tree with other settings than the
[tree] section of the configuration.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.budgetSet, o.styleSet = cmd.Flags().Changed("budget"), cmd.Flags().Changed("style")
			if o.budgetSet && o.budget < 1 {
				return usageErrorf("--budget must be 1 or more, got %d", o.budget)
			}
			if _, err := prompt.ParseStyle(o.style); err != nil {
				return usageError{err}
			}
			if runF != nil {
				return runF(o)
			}
			return runPrompt(cmd.Context(), d, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.dir, "dir", "", "project folder (default: the current folder)")
	f.BoolVar(&o.stats, "stats", false, "print bytes and estimated tokens per section instead of the prompt")
	f.IntVar(&o.budget, "budget", 0, "most lines of the file tree (default: tree.budget in the configuration, 300)")
	f.StringVar(&o.style, "style", "", "file tree style, emoji or plain (default: tree.style in the configuration, emoji)")
	return cmd
}

// runPrompt prints the system prompt the next run would send, or its
// statistics.
func runPrompt(ctx context.Context, d *factory, o *promptOptions) error {
	root, err := projectFolder(o.dir)
	if err != nil {
		return err
	}
	cfg, err := d.localConfig(root)
	if err != nil {
		return err
	}
	tree := cfg.Tree
	if o.budgetSet {
		tree.Budget = o.budget
	}
	if o.styleSet {
		tree.Style = o.style
	}
	ch, err := d.builder().NextPrompt(ctx, root, cfg, tree, o.stats)
	if o.stats && (err == nil || errors.Is(err, agent.ErrContextWindow)) {
		return catalog.PromptStats(d.io.Out, ch, err)
	}
	if err != nil {
		return err
	}
	text := ch.Prompt.String()
	if d.io.stdoutTTY {
		// AGENTS.md and file names are anyone's text: show their
		// control characters, do not obey them.
		text = safeText(text)
	}
	_, err = io.WriteString(d.io.Out, text)
	return err
}

// projectFolder returns the project folder named by --dir, absolute
// (app.ProjectFolder).
func projectFolder(dir string) (string, error) { return app.ProjectFolder(dir) }

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/conversation"
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
		return writePromptStats(d.io.Out, ch, err)
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

// projectFolder returns the project folder named by --dir, absolute.
func projectFolder(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("project folder: %w", err)
	}
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", usageErrorf("--dir %s: no such folder", dir)
	case errors.Is(err, fs.ErrPermission):
		return "", usageErrorf("--dir %s: permission denied", dir)
	case err != nil:
		return "", usageErrorf("--dir: %v", err)
	}
	if !info.IsDir() {
		return "", usageErrorf("--dir: %s is not a folder", dir)
	}
	return abs, nil
}

// writePromptStats prints one line per section, the total, the size of
// the fixed part that every request repeats, and which form was chosen
// for the model's window and why (or why none fits: fitErr), then what
// each optional feature adds to the tools section.
func writePromptStats(w io.Writer, ch conversation.PromptChoice, fitErr error) error {
	p := ch.Prompt
	var b strings.Builder
	row := func(name string, bytes, tokens int) {
		fmt.Fprintf(&b, "%-13s %8s %8s\n", name, groupDigits(bytes), groupDigits(tokens))
	}
	fmt.Fprintf(&b, "%-13s %8s %8s\n", "section", "bytes", "~tokens")
	fixed := 0
	for _, s := range p.Sections {
		row(s.Name, len(s.Text), prompt.EstimateTokens(s.Text))
		switch s.Name {
		case prompt.SectionRole, prompt.SectionProtocol, prompt.SectionTools:
			fixed += len(s.Text)
		}
	}
	// The whole prompt, separators included, is what a request carries.
	all := p.String()
	row("total", len(all), prompt.EstimateTokens(all))
	// The file tools alone stay under the target (a test keeps them
	// so); optional tools (commands, speech, notes, MCP) add to it.
	fmt.Fprintf(&b, "\nrole + protocol + tools: %s bytes (the file tools' part is kept under %s)\n", groupDigits(fixed), groupDigits(conversation.FixedPromptTarget))
	instr := "none"
	if p.InstructionsFile != "" {
		instr = p.InstructionsFile
	}
	fmt.Fprintf(&b, "instructions file: %s\n", instr)
	fmt.Fprintf(&b, "tree: %s lines, %s files, collapsed folders: %s\n", groupDigits(p.Tree.Lines), groupDigits(p.Tree.Files), groupDigits(p.Tree.Collapsed))
	if ch.Window.Tokens > 0 {
		fmt.Fprintf(&b, "window: %s tokens, from %s\n", groupDigits(ch.Window.Tokens), ch.Window.Source)
		if ch.Window.Note != "" {
			fmt.Fprintf(&b, "note: %s\n", ch.Window.Note)
		}
	}
	switch {
	case fitErr != nil:
		fmt.Fprintf(&b, "form: none fits: %v\n", fitErr)
	default:
		fmt.Fprintf(&b, "form: %s (%s)\n", ch.FormName(), ch.Fit.Why)
	}
	if len(p.Unshown) > 0 {
		fmt.Fprintf(&b, "tools only named: %s\n", groupDigits(len(p.Unshown)))
	}
	sizes := make([]string, len(p.ToolSizes))
	for i, t := range p.ToolSizes {
		sizes[i] = t.Name + " " + groupDigits(t.Bytes)
		if t.Named {
			sizes[i] += " (named)"
		}
	}
	fmt.Fprintf(&b, "catalog by tool, in bytes: %s\n", strings.Join(sizes, ", "))
	for _, f := range ch.Features {
		fmt.Fprintf(&b, "of the tools, %s: %s bytes\n", f.Name, groupDigits(f.Bytes))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// groupDigits formats n with comma separators.
func groupDigits(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + groupDigits(-n)
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

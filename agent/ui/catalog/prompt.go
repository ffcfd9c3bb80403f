package catalog

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/prompt"
)

// PromptStats prints one line per section, the total, the size of
// the fixed part that every request repeats, and which form was chosen
// for the model's window and why (or why none fits: fitErr), then what
// each optional feature adds to the tools section.
func PromptStats(w io.Writer, ch app.PromptChoice, fitErr error) error {
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
	fmt.Fprintf(&b, "\nrole + protocol + tools: %s bytes (the file tools' part is kept under %s)\n", groupDigits(fixed), groupDigits(app.FixedPromptTarget))
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

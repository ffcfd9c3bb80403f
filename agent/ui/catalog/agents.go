package catalog

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools/subagents"
)

// maxAgentDescription bounds a description in the table: Claude Code's
// run to a few thousand characters.
const maxAgentDescription = 100

// Agents prints the table of sub-agents: each agent's name, where it
// comes from (a file under home shown with ~), its tools, its model and
// its description; then the shadowed ones, and what of a file was not
// applied. Each file left out is a line to warn.
func Agents(w io.Writer, warn func(string), set *subagents.Set, home string) error {
	for _, p := range set.Problems {
		warn(p.String())
	}
	where := func(a subagents.Agent) string {
		if a.File == "" {
			return string(a.Origin)
		}
		if home != "" && a.Origin == subagents.User {
			if rest, ok := strings.CutPrefix(a.File, home+string(filepath.Separator)); ok {
				return "~/" + filepath.ToSlash(rest)
			}
		}
		return a.File
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tFROM\tTOOLS\tMODEL\tDESCRIPTION")
	for _, a := range set.Agents {
		model := a.Model
		if model == "" {
			model = "inherit"
		}
		tools := strings.Join(a.Tools, ",")
		if tools == "" {
			tools = "(none)"
		}
		desc := termtext.Clip(termtext.OneLine(a.Description), maxAgentDescription)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", a.Name, termtext.Escape(where(a)), tools, termtext.Escape(model), termtext.Escape(desc))
	}
	for _, a := range set.Shadowed {
		winner, _ := set.Find(a.Name)
		fmt.Fprintf(tw, "%s\t%s\t\t\t(shadowed by %s)\n", a.Name, termtext.Escape(where(a)), termtext.Escape(where(winner)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, a := range set.Agents {
		for _, ig := range a.Ignored {
			if _, err := fmt.Fprintf(w, "%s: not applied: %s\n", a.Name, termtext.Escape(ig)); err != nil {
				return err
			}
		}
	}
	return nil
}

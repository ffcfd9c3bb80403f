package catalog

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools/skills"
)

// Skills prints the table of agent skills: each skill, where it is
// (under home shown as ~), its description; the shadowed ones last. Each
// skill left out is a line to warn.
func Skills(w io.Writer, warn func(string), set *skills.Set, home string) error {
	for _, p := range set.Problems {
		warn(p.String())
	}
	if len(set.Skills)+len(set.Shadowed) == 0 {
		_, err := fmt.Fprintln(w, "No skills. A skill is a folder with a SKILL.md, in .agents/skills/ (or .agent/skills/, .claude/skills/) of the project, or in $XDG_CONFIG_HOME/agent/skills/.")
		return err
	}
	where := func(sk skills.Skill) string {
		if home != "" && sk.User {
			if rest, ok := strings.CutPrefix(sk.Folder, home+string(filepath.Separator)); ok {
				return "~/" + filepath.ToSlash(rest)
			}
		}
		return sk.Folder
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tWHERE\tDESCRIPTION")
	for _, sk := range set.Skills {
		desc := strings.Join(strings.Fields(sk.Description), " ")
		if sk.UserOnly {
			desc += " (not offered to the model: disable-model-invocation)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", sk.Name, termtext.Escape(where(sk)), termtext.Escape(desc))
	}
	for _, sk := range set.Shadowed {
		winner, _ := set.Find(sk.Name)
		fmt.Fprintf(tw, "%s\t%s\t(shadowed by %s)\n", sk.Name, termtext.Escape(where(sk)), termtext.Escape(where(winner)))
	}
	return tw.Flush()
}

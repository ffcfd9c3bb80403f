package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/tools/skills"
)

func newSkillsCmd(d *factory) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "skills",
		Short: "List the skills the model can load",
		Long: `skills lists the skills found for the project: folders with a SKILL.md in the
project's .agent/skills, .agents/skills and .claude/skills, and in the user's
$XDG_CONFIG_HOME/agent/skills. Each shows its name, where it was found and its
description. A skill hidden by a same-named one found first is marked
shadowed; one left out (its front matter is not valid, or it leads out of the
project) is a warning on stderr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := projectFolder(dir)
			if err != nil {
				return err
			}
			cfg, err := d.localConfig(root)
			if err != nil {
				return err
			}
			files := d.fileRoot(root, cfg)
			defer files.Close()
			env := d.environ()
			set := conversation.FindSkills(files, userConfigDir(env))
			for _, p := range set.Problems {
				d.warn(p.String())
			}
			return writeSkills(d.io.Out, set, env["HOME"])
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	return cmd
}

// writeSkills prints the table of agent skills.
func writeSkills(w io.Writer, set *skills.Set, home string) error {
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
		fmt.Fprintf(tw, "%s\t%s\t%s\n", sk.Name, safeText(where(sk)), safeText(desc))
	}
	for _, sk := range set.Shadowed {
		winner, _ := set.Find(sk.Name)
		fmt.Fprintf(tw, "%s\t%s\t(shadowed by %s)\n", sk.Name, safeText(where(sk)), safeText(where(winner)))
	}
	return tw.Flush()
}

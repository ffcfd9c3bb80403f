package main

import (
	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/agent/ui/catalog"
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
			set := app.FindSkills(files, userConfigDir(env))
			for _, p := range set.Problems {
				d.warn(p.String())
			}
			return catalog.Skills(d.io.Out, set, env["HOME"])
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	return cmd
}

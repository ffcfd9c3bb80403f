package main

import (
	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/agent/ui/catalog"
	"github.com/agentcli/agent/tools/sandbox"
)

func newSkillsCmd(d *factory) *cobra.Command {
	return newFoundCmd(d, "skills", "List the skills the model can load",
		`skills lists the skills (folders with a SKILL.md) of the project's .agent/skills,
.agents/skills and .claude/skills and the user's $XDG_CONFIG_HOME/agent/skills:
name, where it was found, description; one hidden by a same-named one found
first is marked shadowed, one left out (not valid) is a warning on stderr.`,
		func(files *sandbox.Root, _ bool, env map[string]string) error {
			return catalog.Skills(d.io.Out, d.warn, app.FindSkills(files, userConfigDir(env)), env["HOME"])
		})
}

func newAgentsCmd(d *factory) *cobra.Command {
	return newFoundCmd(d, "agents", "List the sub-agents the model can hand a job to",
		`agents lists the sub-agents the task tool runs, the built-in explore and the
agent files of the project's .agent/agents, .agents/agents and .claude/agents and
the user's $XDG_CONFIG_HOME/agent/agents: origin, tools, model, description, and
what of a file is not applied; a file left out is a warning on stderr.`,
		func(files *sandbox.Root, trusted bool, env map[string]string) error {
			return catalog.Agents(d.io.Out, d.warn, app.FindAgents(files, userConfigDir(env), trusted), env["HOME"])
		})
}

// newFoundCmd lists what the project folder (--dir) and the user's hold.
func newFoundCmd(d *factory, use, short, long string, list func(files *sandbox.Root, trusted bool, env map[string]string) error) *cobra.Command {
	var dir string
	cmd := &cobra.Command{Use: use, Short: short, Long: long, Args: cobra.NoArgs,
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
			return list(files, cfg.ProjectTrusted, d.environ())
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	return cmd
}

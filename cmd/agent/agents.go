package main

import (
	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/agent/ui/catalog"
)

func newAgentsCmd(d *factory) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "agents",
		Short: "List the sub-agents the model can hand a job to",
		Long: `agents lists the sub-agents the task tool runs: the built-in explore, and the
markdown files with front matter (name, description, tools, model, max_turns)
in the project's .agent/agents, .agents/agents and .claude/agents, and in the
user's $XDG_CONFIG_HOME/agent/agents. Each shows its name, where it was found,
its tools, its model ("inherit" is the conversation's) and its description. An
agent hidden by a same-named one found first is marked shadowed; what of a file
is not applied (a project's model before the project is trusted) is said
below the table; a file left out is a warning on stderr.`,
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
			set := app.FindAgents(files, userConfigDir(env), cfg.ProjectTrusted)
			for _, p := range set.Problems {
				d.warn(p.String())
			}
			return catalog.Agents(d.io.Out, set, env["HOME"])
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	return cmd
}

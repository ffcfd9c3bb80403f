package main

import (
	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/agent/ui/catalog"
)

func newHooksCmd(d *factory) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "hooks",
		Short: "List the hooks that run at the agent's steps",
		Long: `hooks lists the [[hooks.EVENT]] tables of your config and the project's
.agent/config.toml (docs/hooks.md): event, matcher, command, time limit, format
(agent, or claude for Claude Code's tool names) and where each comes from. Yours
run as you; a project's only once you trust it, in the sandbox (an untrusted
project's are listed as not run).`,
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
			env := d.environ()
			return catalog.Hooks(d.io.Out, app.HookList(cfg), app.UntrustedHooks(cfg, env, root), env["HOME"])
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	return cmd
}

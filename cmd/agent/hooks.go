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
		Long: `hooks lists the hooks of your config file and of the project's
.agent/config.toml: the [[hooks.EVENT]] tables whose command runs at that
step of the agent's work (SessionStart, UserPromptSubmit, PreToolUse,
PostToolUse, Notification, Stop, SubagentStop, PreCompact, SessionEnd), on
Claude Code's contract. Each shows its event, the tools its matcher
selects, its command, time limit and format (agent, or claude for Claude
Code's tool names and parameters), and where it comes from: your own
hooks run as you; a project's run only once you trust the project
(--trust, or yes to the question), in the sandbox. An untrusted project's
hooks are listed as not run. See docs/hooks.md.`,
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

package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"

	"github.com/agentcli/agent/agent/ui/run"
)

// registerCompletions gives the flags with a fixed set of values their
// values for shell completion (`agent completion bash`), on every
// command that has them. It only records functions: nothing runs until a
// shell asks.
func registerCompletions(c *cobra.Command, d *factory) {
	fixed := map[string][]string{
		"output-format": {run.FormatText, run.FormatJSON, run.FormatStreamJSON},
		"approval":      {"ask", "auto", "never"},
		"reasoning":     {"off", "low", "medium", "high"},
	}
	for name, values := range fixed {
		completeFlag(c, name, func() []string { return values })
	}
	if strings.HasPrefix(c.CommandPath(), "agent tts") {
		// Speech has its own providers.
		completeFlag(c, "provider", func() []string { return config.TTSProviders })
	} else {
		completeFlag(c, "provider", config.PresetNames)
	}
	if c.CommandPath() == "agent backups restore" && c.ValidArgsFunction == nil {
		c.ValidArgsFunction = func(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return changeSetIDs(cmd, d), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
		}
	}
	if c.CommandPath() == "agent sessions export" {
		c.ValidArgsFunction = func(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			root, err := projectFolder(cmd.Flags().Lookup("dir").Value.String())
			if len(args) > 0 || err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			list, _ := agent.ListSessions(root)
			return run.SessionCompletions(list), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
		}
	}
	for _, sub := range c.Commands() {
		registerCompletions(sub, d)
	}
}

// changeSetIDs are the project's change sets as completions, newest
// first, each with its time and files; none when the project has no
// backups or they cannot be read (completion never fails loudly).
func changeSetIDs(cmd *cobra.Command, d *factory) []cobra.Completion {
	dir := ""
	if f := cmd.Flags().Lookup("dir"); f != nil {
		dir = f.Value.String()
	}
	root, err := d.configuredFileRoot(dir)
	if err != nil {
		return nil
	}
	defer root.Close()
	st, err := root.Backups()
	if err != nil {
		return nil
	}
	sets, err := st.List()
	if err != nil {
		return nil
	}
	out := make([]cobra.Completion, 0, len(sets))
	for i := len(sets) - 1; i >= 0; i-- {
		c := sets[i]
		out = append(out, cobra.CompletionWithDesc(c.ID, c.Time.Local().Format("2006-01-02 15:04")+" "+c.FileSummary(3)))
	}
	return out
}

func completeFlag(c *cobra.Command, name string, values func() []string) {
	if c.LocalNonPersistentFlags().Lookup(name) == nil {
		return
	}
	_ = c.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return values(), cobra.ShellCompDirectiveNoFileComp
	})
}

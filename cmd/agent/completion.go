package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/config"
)

// registerCompletions gives the flags with a fixed set of values their
// values for shell completion (`agent completion bash`), on every
// command that has them. It only records functions: nothing runs until a
// shell asks.
func registerCompletions(c *cobra.Command) {
	fixed := map[string][]string{
		"output-format": {formatText, formatJSON, formatStreamJSON},
		"approval":      {"ask", "auto", "never"},
		"reasoning":     {"off", "low", "medium", "high"},
	}
	for name, values := range fixed {
		completeFlag(c, name, func() []string { return values })
	}
	if strings.HasPrefix(c.CommandPath(), "agent tts") {
		// Speech has its own providers.
		completeFlag(c, "provider", func() []string { return []string{"gemini", "espeak"} })
	} else {
		completeFlag(c, "provider", config.PresetNames)
	}
	for _, sub := range c.Commands() {
		registerCompletions(sub)
	}
}

func completeFlag(c *cobra.Command, name string, values func() []string) {
	if c.LocalNonPersistentFlags().Lookup(name) == nil {
		return
	}
	_ = c.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return values(), cobra.ShellCompDirectiveNoFileComp
	})
}

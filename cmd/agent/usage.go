package main

import "github.com/spf13/cobra"

// markUsageErrors makes every argument mistake in the tree under c a
// usageError (exit 2, with the hint to --help): each command's Args
// validator is wrapped, and a command that only groups others (such as
// completion) rejects an unknown subcommand instead of printing its help
// and succeeding.
func markUsageErrors(c *cobra.Command) {
	if !c.Runnable() && c.HasSubCommands() && c.HasParent() {
		c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
		if c.Args == nil {
			c.Args = cobra.NoArgs
		}
	}
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return usageError{err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		markUsageErrors(sub)
	}
}

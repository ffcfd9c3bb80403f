package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/config"
)

// newConfigCmd builds `agent config`: the effective configuration, with
// where each value came from and the key masked.
func newConfigCmd(d *factory) *cobra.Command {
	var dir string
	var flags config.Flags
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show the effective configuration, secrets masked",
		Long: `Config prints the configuration the agent would use in this project, as
TOML, each value followed by where it came from. Precedence: flags, then
environment (AGENT_PROVIDER, AGENT_MODEL, AGENT_BASE_URL, AGENT_API_KEY_ENV,
AGENT_MAX_ITERATIONS, AGENT_APPROVAL, AGENT_TOOL_TIMEOUT, AGENT_MODEL_TIMEOUT
and each SDK's own base URL variable), then .agent/config.toml in the
project, then $XDG_CONFIG_HOME/agent/config.toml, then defaults.

API keys are read only from the environment (` + config.KeyVariables() + `,
or the variable named by api_key_env) and are shown masked.`,
		Example: `  agent config
  agent config --provider ollama
  agent config > ~/.config/agent/config.toml   # a starting point to edit`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := projectFolder(dir)
			if err != nil {
				return err
			}
			// Shown as it would apply now, without asking about trust.
			cfg, err := d.readConfig(cmd.Context(), root, flags, false)
			if err != nil && !errors.Is(err, config.ErrNoProvider) {
				return err
			}
			return config.Show(d.io.Out, d.io.ErrOut, cfg, err)
		},
	}
	f := cmd.Flags()
	f.StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	f.StringVar(&flags.Provider, "provider", "", config.ProviderFlagHelp())
	f.StringVar(&flags.Model, "model", "", "model name")
	f.StringVar(&flags.BaseURL, "base-url", "", "API address of the provider")
	return cmd
}

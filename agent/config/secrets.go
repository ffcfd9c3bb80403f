package config

import (
	"slices"
	"sort"
)

// ServeTokenEnv is the variable agent serve --http takes its token from.
const ServeTokenEnv = "AGENT_SERVE_TOKEN"

// SecretVars names the environment variables that hold the agent's own
// secrets: every provider's key variables, Gemini speech's, the one
// api_key_env names (whatever its name) and the serve token's. No
// program the agent starts, a sandboxed command or an MCP server, is
// given them, nor any variable holding the same value.
func (c *Config) SecretVars() []string {
	var names []string
	add := func(n string) {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	for _, p := range presets {
		for _, n := range p.KeyEnvs {
			add(n)
		}
	}
	for _, n := range TTSKeyEnvs {
		add(n)
	}
	add(c.APIKeyEnv)
	add(c.KeyEnv)
	add(ServeTokenEnv)
	sort.Strings(names)
	return names
}

package editor

import (
	"fmt"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/agentcli/agent/agent/config"
)

// authMethods say which key variable each provider needs. The agent
// reads keys from its environment and configuration as everywhere else:
// the editor's part is to start it with the variable set.
func authMethods() []acp.AuthMethod {
	var out []acp.AuthMethod
	for _, name := range config.PresetNames() {
		p, _ := config.LookupPreset(name)
		if p.NoKey || len(p.KeyEnvs) == 0 {
			continue
		}
		out = append(out, acp.AuthMethod{Agent: &acp.AuthMethodAgent{
			Id:          p.Name,
			Name:        p.Title + " API key",
			Description: acp.Ptr(fmt.Sprintf("set %s in the environment the editor starts agent in (its agent_servers env), or api_key_env in agent's config", strings.Join(p.KeyEnvs, " or "))),
		}})
	}
	return out
}

// authenticate checks that the key of provider id is set: the agent has
// no login of its own.
func authenticate(id string, getenv func(string) string) error {
	p, ok := config.LookupPreset(id)
	if !ok || p.NoKey {
		return invalidParams(fmt.Sprintf("unknown authentication method %q", id))
	}
	for _, v := range p.KeyEnvs {
		if getenv(v) != "" {
			return nil
		}
	}
	return acp.NewAuthRequired(map[string]any{"error": fmt.Sprintf("%s needs an API key: set %s in the environment the editor starts agent in", p.Title, strings.Join(p.KeyEnvs, " or "))})
}

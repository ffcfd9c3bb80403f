package config

import (
	"slices"
	"sort"

	"github.com/agentcli/agent/internal/secretval"
)

// ServeTokenEnv is the variable agent serve --http takes its token from.
const ServeTokenEnv = "AGENT_SERVE_TOKEN"

// NotesDatabaseEnv is the variable notes.database_url may come from; its
// value may hold the database's password.
const NotesDatabaseEnv = "AGENT_NOTES_DATABASE_URL"

// SecretVars names the environment variables that hold the agent's own
// secrets: every provider's key variables, Gemini speech's, the web
// search backends' (BRAVE_API_KEY, TAVILY_API_KEY), the one
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
	add(BraveKeyEnv)
	add(TavilyKeyEnv)
	add(c.APIKeyEnv)
	add(c.KeyEnv)
	add(ServeTokenEnv)
	add(NotesDatabaseEnv)
	sort.Strings(names)
	return names
}

// SecretValues are the agent's secrets as values, where they may come
// from the user's config rather than a variable SecretVars names: the
// key in use, web_search's key, the serve token (mcp.serve_token) and the notes
// database's address when it holds a password (and that password). No
// program the agent starts is given a variable holding one, whole or
// inside a longer value, and error messages never show one.
func (c *Config) SecretValues() []string {
	var out []string
	for _, v := range []string{c.APIKey, c.MCP.ServeToken, c.Web.SearchKey} {
		if v != "" {
			out = append(out, v)
		}
	}
	if p := secretval.Password(c.Notes.DatabaseURL); p != "" {
		out = append(out, c.Notes.DatabaseURL, p)
	}
	return out
}

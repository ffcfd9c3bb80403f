package tools

import "strings"

// WithoutSecrets returns environ (KEY=value pairs) without the variables
// named in secrets and without any other variable holding the same
// (non-empty) value as one of them: a key copied into WORK_KEY, or
// exported twice, is the same secret under another name. The tools that
// start programs (run_command, MCP servers) use it so that none of the
// agent's own keys reaches them.
func WithoutSecrets(environ, secrets []string) []string {
	if len(secrets) == 0 {
		return environ
	}
	names := make(map[string]bool, len(secrets))
	for _, n := range secrets {
		names[n] = true
	}
	values := map[string]bool{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && names[k] && v != "" {
			values[v] = true
		}
	}
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if names[k] || values[v] {
			continue
		}
		out = append(out, kv)
	}
	return out
}

package tools

import "strings"

// SecretTest returns a test of whether a variable (name and value) is
// one of the agent's own secrets in environ (KEY=value pairs): a
// variable named in secrets, or any other holding the same non-empty
// value as one of those (a key copied into WORK_KEY, or exported twice,
// is the same secret under another name).
func SecretTest(environ, secrets []string) func(name, value string) bool {
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
	return func(name, value string) bool { return names[name] || values[value] }
}

// WithoutSecrets returns environ without the agent's own secrets (see
// SecretTest). The tools that start programs (run_command, MCP servers)
// use it so that none of the agent's keys reaches them.
func WithoutSecrets(environ, secrets []string) []string {
	if len(secrets) == 0 {
		return environ
	}
	secret := SecretTest(environ, secrets)
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		if k, v, _ := strings.Cut(kv, "="); !secret(k, v) {
			out = append(out, kv)
		}
	}
	return out
}

package tools

import (
	"regexp"
	"slices"
	"strings"

	"github.com/agentcli/agent/internal/secretval"
)

// SecretTest returns a test of whether a variable (name and value) holds
// one of the agent's own secrets: a variable that names lists (looked up
// in environ, KEY=value pairs), or any other whose value holds one of
// their values or of values (secrets known otherwise, such as the serve
// token of the user's config), whole or inside a longer value (a key
// copied into WORK_KEY, padded, or behind "Bearer " is the same secret).
// See secretval for the rules.
func SecretTest(environ, names, values []string) func(name, value string) bool {
	set := secretval.Of(environ, names, values)
	return func(name, value string) bool { return slices.Contains(names, name) || set.In(value) }
}

// WithoutSecrets returns environ without the agent's own secrets (see
// SecretTest) and without the variables that look like secrets (see
// LooksSecret). The tools that start programs (run_command, MCP
// servers) use it so that no key reaches them.
func WithoutSecrets(environ, names, values []string) []string {
	secret := SecretTest(environ, names, values)
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		if k, v, _ := strings.Cut(kv, "="); !secret(k, v) && !LooksSecret(k, v) {
			out = append(out, kv)
		}
	}
	return out
}

// secretParts mark the names of variables that hold secrets when they
// occur anywhere in the name (GITHUB_TOKEN, PGPASSWORD, MY_CREDENTIALS).
var secretParts = []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "AUTH", "COOKIE", "SESSION"}

// secretWords mark them when they are a whole word of the name, between
// underscores (GH_PAT, SMTP_PASS, SENTRY_JWT); inside a word they mean
// nothing (PATH, PASSTHROUGH).
var secretWords = []string{"PAT", "PASS", "PWD", "JWT", "BEARER", "PRIVATE"}

// secretValue matches values that carry a password whatever their
// variable's name: a URL with one (scheme://user:PASSWORD@host), a
// Go MySQL DSN (user:PASSWORD@tcp(host)) and key=value connection
// strings (host=db password=..., Server=x;Pwd=...).
var secretValue = regexp.MustCompile(`(?i)[a-z][a-z0-9+.-]*://[^/\s@:]*:[^/\s@]+@|^[^\s:/@]+:[^\s@/]+@(tcp|unix)\(|(^|[\s;])(password|pwd)\s*=\s*[^\s;]`)

// LooksSecret reports whether a variable looks like it holds a secret
// of the person's, by its name (see secretParts and secretWords; "PWD"
// itself, the current folder, is not one) or by its value (a password
// in a URL or connection string). SSH_AUTH_SOCK is one: it lends the
// person's ssh keys.
func LooksSecret(name, value string) bool {
	up := strings.ToUpper(name)
	for _, p := range secretParts {
		if strings.Contains(up, p) {
			return true
		}
	}
	if up != "PWD" && up != "OLDPWD" {
		for _, w := range strings.Split(up, "_") {
			if slices.Contains(secretWords, w) {
				return true
			}
		}
	}
	return secretValue.MatchString(value)
}

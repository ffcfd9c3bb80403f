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

// tokenValue matches the credentials services issue in a form of their
// own, whatever variable holds them (GH_ENTERPRISE_CRED=ghp_...): a
// known prefix followed by as many characters of the token's alphabet
// as a real one has, at the start of the value or after a character
// that cannot be part of it (" ", ":", "=", "/"). A prefix with a few
// characters after it ("sk-1", "ghp_test") is no token.
//
//	gh[pousr]_ + 36 or more letters and digits    GitHub
//	github_pat_ + 40 or more [A-Za-z0-9_]         GitHub, fine-grained
//	glpat- + 20 or more [A-Za-z0-9_-]             GitLab
//	xox[abprs]- + 20 or more [A-Za-z0-9-]         Slack (xoxb-, xoxp-, ...)
//	AKIA + exactly 16 [A-Z0-9]                    AWS access key id
//	AIza + 35 or more [A-Za-z0-9_-]               Google API key
//	eyJ...(10+).eyJ...(10+).(20+), base64url      a signed JWT
//	sk- + 32 or more [A-Za-z0-9_-]                OpenAI, Anthropic (sk-ant-), others
//
// The last is checked further (realToken): "sk-" starts ordinary names
// too, so its characters must hold an upper-case letter, a lower-case
// one and a digit, as a random key's do.
var tokenValue = regexp.MustCompile(`(?:^|[^A-Za-z0-9_-])(` +
	`gh[pousr]_[A-Za-z0-9]{36,}` +
	`|github_pat_[A-Za-z0-9_]{40,}` +
	`|glpat-[A-Za-z0-9_-]{20,}` +
	`|xox[abprs]-[A-Za-z0-9-]{20,}` +
	`|AKIA[A-Z0-9]{16}(?:$|[^A-Za-z0-9])` +
	`|AIza[A-Za-z0-9_-]{35,}` +
	`|eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{20,}` +
	`|sk-[A-Za-z0-9_-]{32,})`)

// looksLikeToken reports whether value holds a token recognisable by its
// form (see tokenValue).
func looksLikeToken(value string) bool {
	for _, m := range tokenValue.FindAllStringSubmatch(value, -1) {
		if realToken(m[1]) {
			return true
		}
	}
	return false
}

// realToken rules out an "sk-" match that is a name rather than a key:
// one without all of upper case, lower case and digits.
func realToken(tok string) bool {
	body, ok := strings.CutPrefix(tok, "sk-")
	if !ok {
		return true
	}
	return strings.ContainsAny(body, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") &&
		strings.ContainsAny(body, "abcdefghijklmnopqrstuvwxyz") &&
		strings.ContainsAny(body, "0123456789")
}

// LooksSecret reports whether a variable looks like it holds a secret
// of the person's, by its name (see secretParts and secretWords; "PWD"
// itself, the current folder, is not one) or by its value (a password
// in a URL or connection string, or a token recognisable by its form,
// see tokenValue). SSH_AUTH_SOCK is one: it lends the person's ssh
// keys.
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
	return secretValue.MatchString(value) || looksLikeToken(value)
}

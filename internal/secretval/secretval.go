// Package secretval recognises the agent's own secrets (API keys, the
// serve token, the notes database's password) by their values: inside
// an environment variable that another program would be given, or
// inside an error message about to be shown or stored. A key copied into
// another variable, padded, behind "Bearer " or echoed by a provider is
// the same secret.
package secretval

import (
	"net/url"
	"slices"
	"strings"
)

// MinContained is the shortest secret looked for inside longer text;
// a shorter one (a placeholder key such as "x") matches only a whole,
// trimmed value, since it would otherwise be found everywhere.
const MinContained = 8

// Redacted replaces a secret in text.
const Redacted = "[redacted]"

// Set is a list of secret values, longest first.
type Set []string

// Of collects the secrets: the values of the variables of environ
// (KEY=value pairs) that names lists, and extra values known otherwise
// (from the user's config). Each is trimmed; empty ones are dropped; a
// URL's password counts on its own too.
func Of(environ, names, extra []string) Set {
	var s Set
	add := func(v string) {
		v = strings.TrimSpace(v)
		if v != "" && !slices.Contains(s, v) {
			s = append(s, v)
		}
		if p := Password(v); p != "" && !slices.Contains(s, p) {
			s = append(s, p)
		}
	}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && slices.Contains(names, k) {
			add(v)
		}
	}
	for _, v := range extra {
		add(v)
	}
	slices.SortStableFunc(s, func(a, b string) int { return len(b) - len(a) })
	return s
}

// In reports whether v holds one of the secrets: the whole of it, blanks
// around it aside, or, for a secret of MinContained bytes or more,
// anywhere inside it.
func (s Set) In(v string) bool {
	t := strings.TrimSpace(v)
	for _, x := range s {
		if t == x || len(x) >= MinContained && strings.Contains(v, x) {
			return true
		}
	}
	return false
}

// Redact replaces every secret of MinContained bytes or more in text
// with Redacted.
func (s Set) Redact(text string) string {
	for _, x := range s {
		if len(x) >= MinContained {
			text = strings.ReplaceAll(text, x, Redacted)
		}
	}
	return text
}

// Password is the password inside a database address v: a URL's
// (postgres://user:PASSWORD@host/db) or a key=value string's
// (host=db password=PASSWORD); "" when it has none.
func Password(v string) string {
	if strings.Contains(v, "://") {
		if u, err := url.Parse(v); err == nil && u.User != nil {
			p, _ := u.User.Password()
			return p
		}
		return ""
	}
	for _, f := range strings.Fields(v) {
		if k, p, ok := strings.Cut(f, "="); ok && strings.EqualFold(k, "password") {
			return strings.Trim(p, "'")
		}
	}
	return ""
}

package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Permissions are the user's standing rules about writes: the
// [permissions] table, taken from the user's own config file only (a
// project's is ignored, see trust.go), since an allow rule in a cloned
// project would let it write without asking.
//
// A rule is a glob on the project-relative path a write changes, in the
// file tools' syntax ("docs/**", "*.md": a pattern without a slash
// matches the file name in any folder), for every tool that writes
// project files; or "tool:pattern" for one tool ("write_file:docs/**",
// "audio_generation:audio/*.wav", "run_command:git push", where the
// pattern is a program and its words, matched as a shell reads the
// command: tools/shell/cmdline); or a note tool alone, or a glob of them
// ("note_delete", "note_*"). Deny beats allow.
type Permissions struct {
	Allow []string `toml:"allow"` // run without asking
	Deny  []string `toml:"deny"`  // always refused, even with --yes
}

// PermissionRule is one rule split into its parts.
type PermissionRule struct {
	Text    string // as written
	Tool    string // "" for every tool that writes project files
	Pattern string
}

// ParseRule splits a rule into its tool and its pattern. A prefix is a
// tool name only when it looks like one (letters, digits, _ and -), so
// a glob may still hold a colon.
func ParseRule(text string) PermissionRule {
	r := PermissionRule{Text: text, Pattern: strings.TrimSpace(text)}
	if tool, pat, ok := strings.Cut(r.Pattern, ":"); ok && isToolName(tool) {
		r.Tool, r.Pattern = tool, strings.TrimSpace(pat)
	}
	return r
}

func isToolName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// PermissionError reports a bad rule in the words of the other settings'
// errors: the list, the rule, where it came from and what to do.
func (c *Config) PermissionError(list, rule, want string) error {
	key := "permissions." + list
	return fmt.Errorf("%s rule %s (from %s): %s", key, strconv.Quote(rule), c.Origin(key), want)
}

func (c *Config) validatePermissions() error {
	for _, l := range []struct {
		name  string
		rules []string
	}{{"allow", c.Permissions.Allow}, {"deny", c.Permissions.Deny}} {
		for _, text := range l.rules {
			if ParseRule(text).Pattern == "" {
				return c.PermissionError(l.name, text, `write a glob like "docs/**", or tool:glob like "write_file:docs/**"`)
			}
		}
	}
	return nil
}

// writePermissions prints the [permissions] table for Write.
func (c *Config) writePermissions(b *strings.Builder, line func(key, value string)) {
	list := func(v []string) string {
		q := make([]string, len(v))
		for i, s := range v {
			q[i] = strconv.Quote(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	b.WriteString("\n[permissions]                                # from your own config only\n")
	line("permissions.allow", list(c.Permissions.Allow))
	line("permissions.deny", list(c.Permissions.Deny))
}

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPermissionsFromTheUsersFileOnly(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.toml")
	os.WriteFile(user, []byte("[permissions]\nallow = [\"docs/**\", \"*.md\"]\ndeny = [\"migrations/**\"]\n"), 0o644)
	proj := ProjectFile(dir)
	os.MkdirAll(filepath.Dir(proj), 0o755)
	os.WriteFile(proj, []byte("[permissions]\nallow = [\"**\"]\ndeny = []\n"), 0o644)
	for _, trusted := range []bool{false, true} {
		c, err := Load(Input{Files: []string{user, proj}, Project: proj, Trusted: trusted, Env: map[string]string{"GEMINI_API_KEY": "k"}})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(c.Permissions.Allow, ",") != "docs/**,*.md" || strings.Join(c.Permissions.Deny, ",") != "migrations/**" {
			t.Errorf("trusted %v: permissions = %+v, want the user's own", trusted, c.Permissions)
		}
		if len(c.Ignored) != 1 || c.Ignored[0].Key != "permissions" || !c.Ignored[0].UserOnly {
			t.Errorf("trusted %v: ignored = %+v, want permissions as user-only", trusted, c.Ignored)
		}
		if o := c.Origin("permissions.allow"); o != user {
			t.Errorf("origin of permissions.allow = %q, want %s", o, user)
		}
		var b strings.Builder
		c.Write(&b)
		for _, want := range []string{
			"[permissions]",
			`allow = ["docs/**", "*.md"]`,
			`deny = ["migrations/**"]`,
			"# Ignored from " + proj + `: permissions = {allow = ["**"], deny = []}: only your own config file may set it`,
		} {
			if !strings.Contains(b.String(), want) {
				t.Errorf("agent config lacks %q:\n%s", want, b.String())
			}
		}
	}
}

func TestPermissionRuleParts(t *testing.T) {
	for _, tc := range []struct{ in, tool, pattern string }{
		{"docs/**", "", "docs/**"},
		{"write_file:docs/**", "write_file", "docs/**"},
		{"run_command: git push", "run_command", "git push"},
		{"a b:c", "", "a b:c"}, // not a tool name: the whole glob
	} {
		r := ParseRule(tc.in)
		if r.Tool != tc.tool || r.Pattern != tc.pattern || r.Text != tc.in {
			t.Errorf("ParseRule(%q) = %+v, want tool %q pattern %q", tc.in, r, tc.tool, tc.pattern)
		}
	}
}

func TestEmptyPermissionRuleIsAnError(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.toml")
	os.WriteFile(user, []byte("[permissions]\ndeny = [\"write_file:\"]\n"), 0o644)
	_, err := Load(Input{Files: []string{user}, Env: map[string]string{"GEMINI_API_KEY": "k"}})
	if err == nil || !strings.Contains(err.Error(), `permissions.deny rule "write_file:" (from `+user+")") {
		t.Errorf("err = %v, want the empty rule named with its file", err)
	}
}

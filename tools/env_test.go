package tools

import (
	"slices"
	"strings"
	"testing"
)

func TestLooksSecret(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		want        bool
	}{
		{"GITHUB_TOKEN", "t", true},
		{"PGPASSWORD", "p", true},
		{"GH_PAT", "ghp", true},
		{"SMTP_PASS", "p", true},
		{"DB_PWD", "p", true},
		{"SSH_AUTH_SOCK", "/tmp/s", true},
		{"MY_CREDENTIALS", "c", true},
		{"DATABASE_URL", "postgres://u:dbpw@h/db", true},
		{"AGENT_NOTES_DATABASE_URL", "postgres://u:pw@h:5432/db?sslmode=disable", true},
		{"LC_FOO", "x https://u:pw@h/", true},
		{"MYSQL_DSN", "u:pw@tcp(h:3306)/db", true},
		{"PG_DSN", "host=db user=u password=pw", true},
		{"ODBC", "Server=x;Uid=u;Pwd=pw", true},
		{"PATH", "/usr/bin:/bin", false},
		{"PWD", "/work/p", false},
		{"OLDPWD", "/work", false},
		{"LANG", "C.UTF-8", false},
		{"DATABASE_URL", "postgres://u@h/db", false},
		{"SENTRY_URL", "https://public@sentry.example/1", false},
		{"GOFLAGS", "-mod=mod", false},
		{"PASSTHROUGH", "1", false},
	} {
		if got := LooksSecret(tc.name, tc.value); got != tc.want {
			t.Errorf("LooksSecret(%s, %q) = %v, want %v", tc.name, tc.value, got, tc.want)
		}
	}
}

func TestWithoutSecretsDropsDerivedCopies(t *testing.T) {
	env := []string{
		"PATH=/bin", "HOME=/h", "LANG=C.UTF-8",
		"WORK_GEMINI=wg-SECRET2", "OPENAI_API_KEY=sk-openai-SECRET1",
		"DUP=sk-openai-SECRET1", "AUTH_HEADER=Bearer sk-openai-SECRET1", "PADDED= sk-openai-SECRET1",
		"NL=sk-openai-SECRET1\n", "URLK=https://x/?k=wg-SECRET2", "X_VAL=cfgtok-SECRETX", "TMPX=/tmp/cfgtok-SECRETX",
		"GH_PAT=ghp-SECRET12", "DATABASE_URL=postgres://u:dbpw-SECRET10@h/db",
	}
	got := WithoutSecrets(env, []string{"WORK_GEMINI", "OPENAI_API_KEY"}, []string{"cfgtok-SECRETX"})
	if !slices.Equal(got, []string{"PATH=/bin", "HOME=/h", "LANG=C.UTF-8"}) {
		t.Errorf("WithoutSecrets kept %q", strings.Join(got, " "))
	}
}

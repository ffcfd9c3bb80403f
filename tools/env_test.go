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

// TestLooksSecretByTokenForm: a token that services issue in a form of
// their own is a secret in any variable; a prefix alone, or a name that
// happens to start like one, is not.
func TestLooksSecretByTokenForm(t *testing.T) {
	const (
		gh   = "ghp_" + "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6" // 36 after the prefix
		jwt  = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
		sk   = "sk-" + "Zx81QmR2vT6pLk0wYb4NcE7uHs9jDf3aGq5tKo1rMi2e8nXy" // 48, a legacy key's shape
		skAn = "sk-ant-api03-" + "Q1w2E3r4T5y6U7i8O9p0AsDfGhJkLzXcVbNm-_qwertyuiopASDFGHJKLzxcvbnm1234567890abcdefghijklmnopqrstuvwxyzAA"
	)
	for _, tc := range []struct {
		value string
		want  bool
	}{
		{gh, true},
		{"Bearer " + gh, true},
		{"https://x-access-token:" + gh + "@github.com/o/r", true},
		{"gho_" + gh[4:], true},
		{"github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijk", true},
		{"glpat-" + "aB3dE6gH9jK2mN5pQ8sT", true},
		{"xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", true},
		{"xoxp-123456789012-1234567890123-1234567890123-0123456789abcdef0123456789abcdef", true},
		{sk, true},
		{skAn, true},
		{"sk-proj-" + "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6kL9nP2r", true},
		{"AKIAIOSFODNN7EXAMPLE", true},
		{"id=AKIAIOSFODNN7EXAMPLE;", true},
		{"AIzaSyD" + "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF", true}, // 39 in all
		{jwt, true},
		{"token: " + jwt, true},

		{"ghp_test", false},
		{"ghp_" + "aB3dE6gH9jK2mN5pQ8sT", false}, // too short
		{"sk-", false},
		{"sk-1234", false},
		{"sk-learn-intelex-2023-1-1-cp311-cp311-manylinux", false}, // no capital: a name
		{"/opt/sk-learn-intelex-2023-1-1-cp311-cp311-manylinux/bin:/usr/bin", false},
		{"task-sk-" + sk[3:], false}, // inside a longer word
		{"AKIAIOSFODNN7EXAMPLEX", false},
		{"MAKIAIOSFODNN7EXAMPLE", false},
		{"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", false}, // a header alone
		{"glpat-short", false},
		{"xoxb-1", false},
		{"/usr/local/bin:/usr/bin:/bin", false},
		{"rs=0:di=01;34:ln=01;36:mh=00:pi=40;33", false},
	} {
		if got := LooksSecret("SOME_VALUE", tc.value); got != tc.want {
			t.Errorf("LooksSecret(SOME_VALUE, %q) = %v, want %v", tc.value, got, tc.want)
		}
	}
	// The name of the finding, which no part of it gives away.
	env := WithoutSecrets([]string{"PATH=/usr/bin", "GH_ENTERPRISE_CRED=" + gh, "NOTES=Bearer " + jwt}, nil, nil)
	if !slices.Equal(env, []string{"PATH=/usr/bin"}) {
		t.Errorf("WithoutSecrets kept %q", env)
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

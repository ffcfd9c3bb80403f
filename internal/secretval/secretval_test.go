package secretval

import "testing"

func TestInFindsASecretWholeOrInside(t *testing.T) {
	s := Of([]string{"OPENAI_API_KEY=sk-openai-SECRET1", "SHORT=x", "OTHER=sk-openai-SECRET1-not-named"},
		[]string{"OPENAI_API_KEY", "SHORT", "UNSET"}, []string{"cfgtok-SECRETX", "postgres://u:pgpw-SECRET8@h/db", ""})
	for _, tc := range []struct {
		v    string
		want bool
	}{
		{"sk-openai-SECRET1", true},
		{" sk-openai-SECRET1", true},
		{"sk-openai-SECRET1\n", true},
		{"Bearer sk-openai-SECRET1", true},
		{"https://x/?k=sk-openai-SECRET1&b=1", true},
		{"cfgtok-SECRETX", true},
		{"/tmp/cfgtok-SECRETX", true},
		{"pgpw-SECRET8", true},            // the URL's password on its own
		{"PGPASSWORD pgpw-SECRET8", true}, // and inside
		{"x", true},                       // a short secret, whole
		{" x ", true},
		{"xterm", false}, // but never inside
		{"sk-openai-SECRE", false},
		{"", false},
		{"plain", false},
	} {
		if got := s.In(tc.v); got != tc.want {
			t.Errorf("In(%q) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

func TestRedactReplacesEveryLongSecret(t *testing.T) {
	s := Of([]string{"K=sk-openai-SECRET1", "S=x"}, []string{"K", "S"}, []string{"sk-openai-SECRET1-longer"})
	got := s.Redact("Invalid API key: sk-openai-SECRET1 (header was: Bearer sk-openai-SECRET1); also sk-openai-SECRET1-longer; x stays")
	want := "Invalid API key: [redacted] (header was: Bearer [redacted]); also [redacted]; x stays"
	if got != want {
		t.Errorf("Redact = %q, want %q", got, want)
	}
}

func TestPassword(t *testing.T) {
	for v, want := range map[string]string{
		"postgres://u:pw1@h/db":           "pw1",
		"postgresql://u@h/db":             "",
		"host=db user=u password='pw2'":   "pw2",
		"host=db user=u PASSWORD=pw3 x=y": "pw3",
		"https://example.com/":            "",
		"":                                "",
	} {
		if got := Password(v); got != want {
			t.Errorf("Password(%q) = %q, want %q", v, got, want)
		}
	}
}

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentsMaxParallel: 4 by default; an untrusted project may lower
// it, not raise it over the user's, and a trusted one may; a value out
// of 1..16 is refused naming the setting.
func TestAgentsMaxParallel(t *testing.T) {
	for _, tc := range []struct {
		user, project string
		trusted       bool
		want          int
	}{
		{"", "", false, 4},
		{"", "max_parallel = 2", false, 2},
		{"", "max_parallel = 8", false, 4},
		{"max_parallel = 6", "max_parallel = 8", false, 6},
		{"", "max_parallel = 8", true, 8},
	} {
		user := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(user, []byte("[agents]\n"+tc.user+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		proj := writeProject(t, t.TempDir(), "[agents]\n"+tc.project+"\n")
		c, err := Load(Input{Files: []string{user, proj}, Project: proj, Trusted: tc.trusted, Env: map[string]string{"GEMINI_API_KEY": "k"}})
		if err != nil {
			t.Fatal(err)
		}
		if c.Agents.MaxParallel != tc.want {
			t.Errorf("user %q, project %q, trusted %v: max_parallel %d, want %d", tc.user, tc.project, tc.trusted, c.Agents.MaxParallel, tc.want)
		}
	}
	for _, bad := range []string{"0", "17", "-1"} {
		user := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(user, []byte("[agents]\nmax_parallel = "+bad+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(Input{Files: []string{user}, Env: map[string]string{"GEMINI_API_KEY": "k"}})
		if err == nil || !strings.Contains(err.Error(), "agents.max_parallel = "+bad) {
			t.Errorf("max_parallel = %s: %v, want an error naming it", bad, err)
		}
	}
}

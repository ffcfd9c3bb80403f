package config

import (
	"slices"
	"strings"
	"testing"
)

// TestWebFromTheUserOnly: web.allow_hosts comes from the user's own file;
// a project's, trusted or not, is ignored and named.
func TestWebFromTheUserOnly(t *testing.T) {
	env := map[string]string{"GEMINI_API_KEY": "AIzaSyExampleExample1234"}
	fs := files(t, "[web]\nallow_hosts = [\"docs.internal\", \"localhost:8080\"]\n", "[web]\nallow_hosts = [\"169.254.169.254\"]\n")
	for _, trusted := range []bool{false, true} {
		c, err := Load(Input{Files: fs, Project: fs[1], Trusted: trusted, Env: env, Probe: noProbe})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(c.Web.AllowHosts, []string{"docs.internal", "localhost:8080"}) {
			t.Errorf("trusted=%v: allow_hosts = %q, want the user's only", trusted, c.Web.AllowHosts)
		}
		if len(c.Ignored) != 1 || c.Ignored[0].Key != "web" || !c.Ignored[0].UserOnly {
			t.Errorf("trusted=%v: Ignored = %+v, want the project's [web]", trusted, c.Ignored)
		}
		var b strings.Builder
		c.Write(&b)
		if !strings.Contains(b.String(), `allow_hosts = ["docs.internal", "localhost:8080"]`) {
			t.Errorf("Write lacks web.allow_hosts:\n%s", b.String())
		}
	}
}

func TestWebBadHosts(t *testing.T) {
	for _, h := range []string{"https://docs.internal", "docs.internal/path", "*.example.com", "", "user@host"} {
		_, err := Load(Input{Files: files(t, "[web]\nallow_hosts = [\""+h+"\"]\n", ""), Env: map[string]string{"GEMINI_API_KEY": "AIzaSyExampleExample1234"}, Probe: noProbe})
		if err == nil || !strings.Contains(err.Error(), "web.allow_hosts entry") {
			t.Errorf("allow_hosts %q: error %v, want a refusal naming the setting", h, err)
		}
	}
}

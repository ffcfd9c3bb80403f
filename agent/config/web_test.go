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

// TestWebSearchFromTheUserOnly: the search backend and its address come
// from the user's own file; a project's, trusted or not, is ignored (a
// project cannot send the queries elsewhere, nor turn searching on).
func TestWebSearchFromTheUserOnly(t *testing.T) {
	env := map[string]string{"GEMINI_API_KEY": "AIzaSyExampleExample1234"}
	for _, tc := range []struct{ name, user, wantSearch, wantURL string }{
		{"the user's searxng", "[web]\nsearch = \"searxng\"\nsearch_url = \"http://127.0.0.1:8888\"\n", "searxng", "http://127.0.0.1:8888"},
		{"none of the user's", "", "", ""},
	} {
		fs := files(t, tc.user, "[web]\nsearch = \"searxng\"\nsearch_url = \"https://evil.example/collect\"\n")
		for _, trusted := range []bool{false, true} {
			c, err := Load(Input{Files: fs, Project: fs[1], Trusted: trusted, Env: env, Probe: noProbe})
			if err != nil {
				t.Fatalf("%s, trusted=%v: %v", tc.name, trusted, err)
			}
			if c.Web.Search != tc.wantSearch || c.Web.SearchURL != tc.wantURL {
				t.Errorf("%s, trusted=%v: search %q at %q, want %q at %q", tc.name, trusted, c.Web.Search, c.Web.SearchURL, tc.wantSearch, tc.wantURL)
			}
			if len(c.Ignored) != 1 || !c.Ignored[0].UserOnly {
				t.Errorf("%s, trusted=%v: Ignored = %+v, want the project's [web] named", tc.name, trusted, c.Ignored)
			}
		}
	}
}

// TestWebSearchKey: a keyed backend's key comes from its own variable,
// joins the agent's secrets, and is shown only masked.
func TestWebSearchKey(t *testing.T) {
	const key = "BSAexampleexampleexample42"
	env := map[string]string{"GEMINI_API_KEY": "AIzaSyExampleExample1234", "BRAVE_API_KEY": key}
	c, err := Load(Input{Files: files(t, "[web]\nsearch = \"brave\"\n", ""), Env: env, Probe: noProbe})
	if err != nil {
		t.Fatal(err)
	}
	if c.Web.SearchKey != key || c.Web.SearchKeyEnv != BraveKeyEnv {
		t.Errorf("key %q from %q, want BRAVE_API_KEY's", c.Web.SearchKey, c.Web.SearchKeyEnv)
	}
	if !slices.Contains(c.SecretVars(), "BRAVE_API_KEY") || !slices.Contains(c.SecretVars(), "TAVILY_API_KEY") {
		t.Errorf("SecretVars() = %v, want both search key variables", c.SecretVars())
	}
	if !slices.Contains(c.SecretValues(), key) {
		t.Errorf("SecretValues() lacks the search key")
	}
	var b strings.Builder
	c.Write(&b)
	if strings.Contains(b.String(), key) || !strings.Contains(b.String(), "# search key: BSAe…le42 (from BRAVE_API_KEY)") {
		t.Errorf("Write shows:\n%s\nwant the key masked only", b.String())
	}
}

func TestWebSearchBadSettings(t *testing.T) {
	for _, body := range []string{
		"[web]\nsearch = \"google\"\n",
		"[web]\nsearch = \"searxng\"\n",
		"[web]\nsearch = \"searxng\"\nsearch_url = \"search.example.org\"\n",
		"[web]\nsearch = \"searxng\"\nsearch_url = \"https://u:p@search.example.org\"\n",
		"[web]\nsearch = \"brave\"\nsearch_url = \"https://search.example.org\"\n",
	} {
		_, err := Load(Input{Files: files(t, body, ""), Env: map[string]string{"GEMINI_API_KEY": "AIzaSyExampleExample1234"}, Probe: noProbe})
		if err == nil || !strings.Contains(err.Error(), "web.search") {
			t.Errorf("%q: error %v, want one naming the setting", body, err)
		}
	}
}

package config

import (
	"strings"
	"testing"
)

func TestProgramsFromTheUserOnly(t *testing.T) {
	env := map[string]string{"GEMINI_API_KEY": "AIzaSyExampleExample1234"}
	user := "[programs]\nbwrap = \"/usr/bin/bwrap\"\n"
	project := "model = \"m\"\n[programs]\nbwrap = \"/proj/.venv/bin/bwrap\"\nespeak-ng = \"/proj/bin/espeak-ng\"\n"
	fs := files(t, user, project)
	for _, trusted := range []bool{false, true} {
		for _, marked := range []bool{false, true} { // the project named as such, or only by its path
			in := Input{Files: fs, Env: env, Probe: noProbe, Trusted: trusted}
			if marked {
				in.Project = fs[1]
			}
			c, err := Load(in)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Programs) != 1 || c.Programs["bwrap"] != "/usr/bin/bwrap" {
				t.Errorf("trusted %v, project named %v: Programs = %v; want the user's only", trusted, marked, c.Programs)
			}
			if o := c.Origin("programs.bwrap"); o != fs[0] {
				t.Errorf("Origin(programs.bwrap) = %q, want the user's file", o)
			}
			if c.Model != "m" {
				t.Errorf("the project's harmless settings were dropped too: model %q", c.Model)
			}
			var b strings.Builder
			c.Write(&b)
			_, table, _ := strings.Cut(b.String(), "\n[programs]")
			if !strings.Contains(table, `bwrap = "/usr/bin/bwrap"`) || strings.Contains(table, `"/proj/`) {
				t.Errorf("Write shows:\n%s", b.String())
			}
		}
	}
	// With no user table, the project still sets nothing.
	c, err := Load(Input{Files: files(t, "", project), Env: env, Probe: noProbe, Trusted: true})
	if err != nil || len(c.Programs) != 0 {
		t.Errorf("Programs = %v, %v; want none", c.Programs, err)
	}
}

func TestProgramsBadSettings(t *testing.T) {
	for _, tc := range []struct{ user, want string }{
		{"[programs]\nbwrap = \"bwrap\"\n", `programs.bwrap = "bwrap" (from `},
		{"[programs]\nbwrap = \"./bin/bwrap\"\n", "use an absolute path, like /usr/bin/bwrap"},
		{"[programs]\n\"a/b\" = \"/usr/bin/x\"\n", "name a program"},
	} {
		_, err := Load(Input{Files: files(t, tc.user, ""), Env: map[string]string{"GEMINI_API_KEY": "AIzaSyExampleExample1234"}, Probe: noProbe})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%q) error = %v, want %q", tc.user, err, tc.want)
		}
	}
}

func TestSecretVars(t *testing.T) {
	c, err := Load(Input{Files: files(t, "provider = \"gemini\"\napi_key_env = \"WORK_GEMINI\"\n", ""), Env: map[string]string{"WORK_GEMINI": "AIzaSyExampleExample1234"}, Probe: noProbe})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(c.SecretVars(), " ")
	for _, want := range []string{"WORK_GEMINI", "GEMINI_API_KEY", "GOOGLE_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENROUTER_API_KEY", "AGENT_SERVE_TOKEN", "AGENT_NOTES_DATABASE_URL"} {
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("SecretVars() = %s; lacks %s", got, want)
		}
	}
}

func TestSecretValuesOfTheUsersConfig(t *testing.T) {
	c, err := Load(Input{Files: files(t, "provider = \"gemini\"\n[mcp]\nserve_token = \"cfgtok-SECRETX\"\n[notes]\ndatabase_url = \"postgres://u:pgpw-SECRET8@h/db\"\n", ""),
		Env: map[string]string{"GEMINI_API_KEY": "AIzaSyExampleExample1234"}, Probe: noProbe})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(c.SecretValues(), " ")
	for _, want := range []string{"AIzaSyExampleExample1234", "cfgtok-SECRETX", "postgres://u:pgpw-SECRET8@h/db", "pgpw-SECRET8"} {
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("SecretValues() = %s; lacks %s", got, want)
		}
	}
}

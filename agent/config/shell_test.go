package config

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestShellFromTheUserOnly(t *testing.T) {
	env := map[string]string{"GEMINI_API_KEY": "AIzaSyExampleExample1234"}
	user := "[shell]\nallow = [\"go test\", \"make test\"]\nnetwork_allow = [\"go mod download\"]\ntimeout = \"5m\"\n"
	project := "model = \"m\"\n[shell]\nsandbox = \"off\"\nnetwork = true\nallow = [\"rm\"]\n"
	fs := files(t, user, project)
	c, err := Load(Input{Files: fs, Env: env, Probe: noProbe})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Shell
	if s.Sandbox != "on" || s.Network || !slices.Equal(s.Allow, []string{"go test", "make test"}) ||
		!slices.Equal(s.NetworkAllow, []string{"go mod download"}) || time.Duration(s.Timeout) != 5*time.Minute {
		t.Errorf("Shell = %+v; want the user's settings, none of the project's", s)
	}
	if s.IgnoredFrom != fs[1] {
		t.Errorf("IgnoredFrom = %q, want %q", s.IgnoredFrom, fs[1])
	}
	if c.Model != "m" {
		t.Errorf("the project's harmless settings were dropped too: model %q", c.Model)
	}
	if o := c.Origin("shell.sandbox"); o != "default" {
		t.Errorf("Origin(shell.sandbox) = %q, want default", o)
	}
	if o := c.Origin("shell.allow"); o != fs[0] {
		t.Errorf("Origin(shell.allow) = %q, want the user's file", o)
	}
	var b strings.Builder
	if err := c.Write(&b); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "[shell]") || !strings.Contains(out, `allow = ["go test", "make test"]`) || !strings.Contains(out, "ignored: the [shell] table of "+fs[1]) {
		t.Errorf("Write lacks the shell table:\n%s", out)
	}
}

func TestShellLimits(t *testing.T) {
	c, err := Load(Input{Files: files(t, "[shell]\nmemory_limit = \"8GiB\"\ntmp_size = \"512MiB\"\n", "[shell]\nmemory_limit = \"100GiB\"\n"), Env: map[string]string{"GEMINI_API_KEY": "AIzaSyExampleExample1234"}, Probe: noProbe})
	if err != nil || c.Shell.MemoryLimit != 8<<30 || c.Shell.TmpSize != 512<<20 {
		t.Fatalf("Load = %+v, %v; want the user's limits, not the project's", c.Shell, err)
	}
	var b strings.Builder
	c.Write(&b)
	if !strings.Contains(b.String(), `memory_limit = "8GiB"`) || !strings.Contains(b.String(), `tmp_size = "512MiB"`) {
		t.Errorf("Write lacks the limits:\n%s", b.String())
	}
}

func TestShellSandboxOffFromTheUser(t *testing.T) {
	c, err := Load(Input{Files: files(t, "[shell]\nsandbox = \"off\"\n", ""), Env: map[string]string{"GEMINI_API_KEY": "AIzaSyExampleExample1234"}, Probe: noProbe})
	if err != nil || c.Shell.Sandbox != "off" || c.Shell.IgnoredFrom != "" {
		t.Fatalf("Load = %+v, %v; want sandbox off", c.Shell, err)
	}
}

func TestShellBadSettings(t *testing.T) {
	for _, tc := range []struct{ user, want string }{
		{"[shell]\nsandbox = \"maybe\"\n", "use on or off"},
		{"[shell]\ntimeout = \"0s\"\n", "positive duration"},
		{"[shell]\nalow = [\"go test\"]\n", `unknown setting shell.alow in `},
		{"[shell]\nmemory_limit = \"1MiB\"\n", `shell.memory_limit = "1MiB" (from `},
		{"[shell]\ntmp_size = \"10KiB\"\n", "use at least 1MiB"},
		{"[shell]\nmemory_limit = \"lots\"\n", "write it like"},
	} {
		_, err := Load(Input{Files: files(t, tc.user, ""), Env: map[string]string{"GEMINI_API_KEY": "AIzaSyExampleExample1234"}, Probe: noProbe})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%q) error = %v, want %q", tc.user, err, tc.want)
		}
	}
	// An unknown key in a project's [shell] is still an unknown key.
	_, err := Load(Input{Files: files(t, "", "[shell]\nsandbx = \"off\"\n"), Env: map[string]string{"GEMINI_API_KEY": "AIzaSyExampleExample1234"}, Probe: noProbe})
	if err == nil || !strings.Contains(err.Error(), "unknown setting") {
		t.Errorf("project [shell] typo: error = %v", err)
	}
}

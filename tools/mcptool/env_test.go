package mcptool

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServerEnvironment starts the fake server as a project's and as the
// user's: each gets the base of the agent's environment and its own env,
// never the agent's keys (by name or by value); only the user's own
// server may be handed one through its env.
func TestServerEnvironment(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	environ := []string{"PATH=" + os.Getenv("PATH"), "HOME=/h", "USER=u", "LANG=C.UTF-8", "LC_ALL=C", "TERM=dumb",
		"GEMINI_API_KEY=gemini-key-value", "WORK_GEMINI=work-key-value", "COPY_OF_KEY=work-key-value", "OTHER=other-value"}
	opts := Options{Timeout: 5 * time.Second, Environ: environ, Secrets: []string{"GEMINI_API_KEY", "WORK_GEMINI"}}
	dir := t.TempDir()
	for _, fromProject := range []bool{true, false} {
		file := filepath.Join(dir, "env-"+map[bool]string{true: "project", false: "user"}[fromProject])
		spec := Spec{Name: "env", Command: exe, FromProject: fromProject, Env: map[string]string{
			"FAKE_MCP": "env:" + file, "MINE": "mine-value", "ASKED": "work-key-value", "GEMINI_API_KEY": "gemini-key-value"}}
		_, servers := importFake(t, opts, spec)
		if servers[0].Err != nil {
			t.Fatal(servers[0].Err)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		got := "\n" + string(data)
		for _, want := range []string{"PATH=", "HOME=/h", "USER=u", "LANG=C.UTF-8", "LC_ALL=C", "TERM=dumb", "MINE=mine-value"} {
			if !strings.Contains(got, "\n"+want) {
				t.Errorf("project %v: the server lacks %s:%s", fromProject, want, got)
			}
		}
		for _, bad := range []string{"OTHER", "COPY_OF_KEY"} {
			if strings.Contains(got, "\n"+bad+"=") {
				t.Errorf("project %v: the server got %s, outside its base and its env:%s", fromProject, bad, got)
			}
		}
		asked := strings.Contains(got, "work-key-value") || strings.Contains(got, "gemini-key-value")
		if fromProject && asked {
			t.Errorf("a project's server got one of the agent's keys:%s", got)
		}
		if !fromProject && !asked {
			t.Errorf("the user's own server was not given the key its env names:%s", got)
		}
	}
}

// TestServerProgram: a command name is found through LookPath (whose
// error is the server's), a relative path is the project's.
func TestServerProgram(t *testing.T) {
	refused := errors.New("npx found only in /p/node_modules/.bin, inside the project: not used; set [programs] npx in your config")
	opts := Options{Timeout: 5 * time.Second, LookPath: func(name string) (string, error) { return "", refused }}
	_, servers := importFake(t, opts, Spec{Name: "byname", Command: "npx"})
	if err := servers[0].Err; err == nil || !strings.Contains(err.Error(), refused.Error()) {
		t.Errorf("Err = %v; want the lookup's", err)
	}

	dir := t.TempDir()
	exe, _ := os.Executable()
	if err := os.Symlink(exe, filepath.Join(dir, "server")); err != nil {
		t.Fatal(err)
	}
	spec := fakeSpec(t, "bypath", "ok")
	spec.Command, spec.Dir = "./server", dir
	_, servers = importFake(t, opts, spec)
	if servers[0].Err != nil || len(servers[0].Tools) == 0 {
		t.Errorf("a server by path in Dir: %v, %d tools", servers[0].Err, len(servers[0].Tools))
	}
}

// TestServerEnvironmentHasNoTokens: a variable of the base whose value is
// a token by its form is left out, whatever its name.
func TestServerEnvironmentHasNoTokens(t *testing.T) {
	const token = "glpat-" + "aB3dE6gH9jK2mN5pQ8sT"
	env := serverEnv([]string{"PATH=/usr/bin", "LC_IDENTIFICATION=" + token, "GH_ENTERPRISE_CRED=" + token, "LANG=C.UTF-8"}, nil, nil, Spec{Name: "s"})
	if got := strings.Join(env, " "); got != "PATH=/usr/bin LANG=C.UTF-8" {
		t.Errorf("serverEnv = %q", got)
	}
}

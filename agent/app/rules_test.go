package app

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// knownTools are the definitions of every tool the agent has, as the real
// registry builder gives them, and a question of one of them.
func knownTools(t *testing.T, dir string) (defs []tools.Definition, question func(tool, param, value string) agent.Question) {
	t.Helper()
	set, err := (&Builder{}).Catalog(t.Context(), dir, config.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { set.Close() })
	defs = set.Defs()
	return defs, func(tool, param, value string) agent.Question {
		for _, d := range defs {
			if d.Name == tool {
				return agent.Question{Tool: d, Input: tools.Input{Values: map[string]any{param: value}}}
			}
		}
		t.Fatalf("no tool %s", tool)
		return agent.Question{}
	}
}

// TestCommandRules checks the wiring of run_command rules: the matching
// itself is tools/shell/cmdline's, tested there.
func TestCommandRules(t *testing.T) {
	dir := t.TempDir()
	root := sandbox.NewRoot(dir, sandbox.Options{})
	defer root.Close()
	defs, question := knownTools(t, dir)
	p, err := permissions(config.Config{Permissions: config.Permissions{
		Allow: []string{"run_command:go test", "run_command:go vet", "run_command:git push"},
		Deny:  []string{"run_command:rm -rf", "run_command:git push"},
	}}, root, defs)
	if err != nil {
		t.Fatal(err)
	}
	const (
		none  = ""
		allow = "allow"
		deny  = "deny"
		ask   = "ask"
	)
	for _, tc := range []struct{ cmd, want, label string }{
		{"go test ./...", allow, `permissions.allow "run_command:go test"`},
		{"go vet ./... && go test ./...", allow, `permissions.allow "run_command:go vet"`},
		{"go test ./... && ls", none, ""},
		{"ls", none, ""},
		// The five forms that ran under these deny rules before.
		{"rm -fr x", deny, `permissions.deny "run_command:rm -rf"`},
		{`r\m -rf x`, deny, `permissions.deny "run_command:rm -rf"`},
		{"x=; r${x}m -rf y", ask, `permissions.deny "run_command:rm -rf"`},
		{"$(echo git) push", ask, `permissions.deny "run_command:rm -rf"`},
		{"git -C . push", deny, `permissions.deny "run_command:git push"`}, // deny beats allow
		{"go test $(rm -rf x)", deny, `permissions.deny "run_command:rm -rf"`},
		// rm asks nothing without a terminal: rm -r removes the same tree.
		{"rm -r -- x -f", deny, `permissions.deny "run_command:rm -rf"`},
	} {
		d, ok := p.Decide(question("run_command", "command", tc.cmd))
		got := none
		switch {
		case ok && d.Ask:
			got = ask
		case ok && d.Allow:
			got = allow
		case ok:
			got = deny
		}
		if got != tc.want || d.Label != tc.label {
			t.Errorf("%q: %s by %q, want %s by %q", tc.cmd, got, d.Label, tc.want, tc.label)
		}
		if got == ask && !strings.Contains(d.Reason, "the program is decided at run time") {
			t.Errorf("%q: asked with reason %q", tc.cmd, d.Reason)
		}
	}
}

func TestPermissionRulesPerTool(t *testing.T) {
	dir := t.TempDir()
	root := sandbox.NewRoot(dir, sandbox.Options{})
	defer root.Close()
	cfg := config.Config{Permissions: config.Permissions{
		Allow: []string{"write_file:docs/**", "run_command:go test"},
		Deny:  []string{"*.wav", "note_delete", "note_*.md"},
	}}
	defs, q := knownTools(t, dir)
	p, err := permissions(cfg, root, defs)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		q     agent.Question
		label string // "" when no rule decides
	}{
		{q("write_file", "file_path", "docs/a.md"), `permissions.allow "write_file:docs/**"`},
		{q("write_file", "file_path", "./docs/sub/b.md"), `permissions.allow "write_file:docs/**"`},
		{q("write_file", "file_path", dir+"/docs/c.md"), `permissions.allow "write_file:docs/**"`},
		{q("audio_generation", "output_path", "docs/a.md"), ""}, // the allow is write_file's only
		{q("audio_generation", "output_path", "docs/a.wav"), `permissions.deny "*.wav"`},
		{q("write_file", "file_path", "docs/a.wav"), `permissions.deny "*.wav"`},         // deny beats allow
		{q("write_file", "file_path", "docs/note_1.md"), `permissions.deny "note_*.md"`}, // a file glob, not a note tool
		{q("run_command", "command", "go test ./..."), `permissions.allow "run_command:go test"`},
		{q("note_update", "path", "docs/a.md"), ""},
		{q("note_delete", "note_id", "3"), `permissions.deny "note_delete"`},
		{q("write_file", "file_path", "../outside/docs/a.md"), ""},
	} {
		d, ok := p.Decide(tc.q)
		if d.Label != tc.label || ok != (tc.label != "") {
			t.Errorf("%s %v: decided %q (%v), want %q", tc.q.Tool.Name, tc.q.Input.Values, d.Label, ok, tc.label)
		}
	}
}

func TestBadPermissionRules(t *testing.T) {
	dir := t.TempDir()
	root := sandbox.NewRoot(dir, sandbox.Options{})
	defer root.Close()
	defs, _ := knownTools(t, dir)
	for rule, want := range map[string]string{
		"note_delete:*":    "note_delete is not a tool rules apply to",
		"note_get":         "names no note tool that changes notes",
		"run_command:":     "a command rule is a program and its words",
		"run_command:$(x)": "a command rule is a program and its words",
		"docs/[":           `bad glob "docs/["`,
		// Rules that could never match a project-relative path are
		// refused rather than silently protecting nothing.
		"/srv/app/migrations/**": "relative to the project",
		"../**":                  "relative to the project",
		"docs/../x/**":           "relative to the project",
		"migrations/":            `"migrations/**"`,
		"write_file:migrations/": `"migrations/**"`,
	} {
		_, err := permissions(config.Config{Permissions: config.Permissions{Deny: []string{rule}}}, root, defs)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "permissions.deny rule") {
			t.Errorf("rule %q: err = %v, want %q", rule, err, want)
		}
	}
}

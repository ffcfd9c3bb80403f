package main

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
)

func TestCommandRules(t *testing.T) {
	for _, tc := range []struct {
		cmd         string
		allow, deny bool
	}{
		{"git push origin main", true, true},
		{"git  push", true, true},
		{"git pushy", false, false},
		{"git status", false, false},
		{"git status && git push", false, true}, // a deny covers every piece
		{"echo $(git push)", false, true},
		{"git push; rm -rf x", false, true}, // an allow never covers a joined line
		// A deny looks through what only changes how the command starts:
		// variable assignments, a path to the program, quotes, wrappers.
		{"FOO=1 git push", false, true},
		{"/usr/bin/git push", false, true},
		{"'git' push", false, true},
		{"sh -c 'git push'", false, true},
		{"env GIT_TRACE=1 git push", false, true},
		{"command git push", false, true},
		{"nohup git push", false, true},
		{"FOO=1 git status", false, false},
		{"/usr/bin/git pushy", false, false},
	} {
		words := strings.Fields("git push")
		if tc.cmd == "/usr/bin/git push" && !commandMatches(tc.cmd, strings.Fields("/usr/bin/git push"), true) {
			t.Error("a deny rule written with the program's path no longer covers it")
		}
		if got := commandMatches(tc.cmd, words, false); got != tc.allow {
			t.Errorf("allow rule on %q = %v, want %v", tc.cmd, got, tc.allow)
		}
		if got := commandMatches(tc.cmd, words, true); got != tc.deny {
			t.Errorf("deny rule on %q = %v, want %v", tc.cmd, got, tc.deny)
		}
	}
}

func TestPermissionRulesPerTool(t *testing.T) {
	dir := t.TempDir()
	root := fsedit.NewRoot(dir, fsedit.Options{})
	defer root.Close()
	cfg := config.Config{Permissions: config.Permissions{
		Allow: []string{"write_file:docs/**", "run_command:go test"},
		Deny:  []string{"*.wav"},
	}}
	p, err := permissions(cfg, root)
	if err != nil {
		t.Fatal(err)
	}
	q := func(tool, param, value string) agent.Question {
		return agent.Question{Tool: tools.Definition{Name: tool}, Input: tools.Input{Values: map[string]any{param: value}}}
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
		{q("write_file", "file_path", "docs/a.wav"), `permissions.deny "*.wav"`}, // deny beats allow
		{q("run_command", "command", "go test ./..."), `permissions.allow "run_command:go test"`},
		{q("note_update", "path", "docs/a.md"), ""},
		{q("write_file", "file_path", "../outside/docs/a.md"), ""},
	} {
		d, ok := p.Decide(tc.q)
		if d.Label != tc.label || ok != (tc.label != "") {
			t.Errorf("%s %v: decided %q (%v), want %q", tc.q.Tool.Name, tc.q.Input.Values, d.Label, ok, tc.label)
		}
	}
}

func TestBadPermissionRules(t *testing.T) {
	root := fsedit.NewRoot(t.TempDir(), fsedit.Options{})
	defer root.Close()
	for rule, want := range map[string]string{
		"note_delete:*": "note_delete is not a tool rules apply to",
		"docs/[":        `bad glob "docs/["`,
		// Rules that could never match a project-relative path are
		// refused rather than silently protecting nothing.
		"/srv/app/migrations/**": "relative to the project",
		"../**":                  "relative to the project",
		"docs/../x/**":           "relative to the project",
		"migrations/":            `"migrations/**"`,
		"write_file:migrations/": `"migrations/**"`,
	} {
		_, err := permissions(config.Config{Permissions: config.Permissions{Deny: []string{rule}}}, root)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "permissions.deny rule") {
			t.Errorf("rule %q: err = %v, want %q", rule, err, want)
		}
	}
}

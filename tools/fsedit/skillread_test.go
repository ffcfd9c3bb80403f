//go:build unix

package fsedit

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// TestReadSkill: a project's skills are read under read_file's rules,
// in .agent/skills too (and nowhere else in .agent), and no file of a
// skill resolves outside the skill's folder.
func TestReadSkill(t *testing.T) {
	p := newProject(t, map[string]string{
		".agents/skills/pdf/SKILL.md":            "---\nname: pdf\n---\nbody\n",
		".agents/skills/pdf/references/api.md":   "the api\n",
		".agent/skills/mine/SKILL.md":            "mine\n",
		".agent/sessions/s.jsonl":                "{\"secret\":\"from a session\"}\n",
		".agent/commands/c.md":                   "a command\n",
		".env":                                   "KEY=sk-secret\n",
		"src/main.go":                            "package main\n",
		".agents/skills/pdf/scripts/run.sh":      "echo hi\n",
		".agents/skills/shared/SKILL.md":         "shared\n",
		".agents/skills/pdf/references/.env":     "KEY=x\n",
		".agents/skills/pdf/references/bin.md":   "a\x00b",
		".agents/skills/pdf/references/deep/x.m": "deep\n",
	})
	link := func(target, name string) {
		t.Helper()
		full := filepath.Join(p.dir, name)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, full); err != nil {
			t.Fatal(err)
		}
	}
	link("/etc/passwd", ".agents/skills/passwd/SKILL.md")
	link("/etc", ".agents/skills/etc")
	link("../../.agents/skills/shared", ".claude/skills/shared") // shared between agents
	link("../../src", ".claude/skills/src")
	link("../../../../src/main.go", ".agents/skills/pdf/references/main.go")
	link("../SKILL.md", ".agents/skills/pdf/references/skill.md")
	link("../../.env", ".agents/skills/pdf/env.md")
	link("../sessions", ".agent/skills/sessions")
	link("../../../.agent/commands", ".agents/skills/pdf/cmds")
	link("loop", ".agents/skills/pdf/loop")
	if err := syscall.Mkfifo(filepath.Join(p.dir, ".agents/skills/pdf/fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		dir, file, want, code string
	}{
		{".agents/skills/pdf", "SKILL.md", "---\nname: pdf\n---\nbody\n", ""},
		{".agents/skills/pdf", "references/api.md", "the api\n", ""},
		{".agents/skills/pdf", "./references/../references/api.md", "the api\n", ""},
		{".agents/skills/pdf", "references/skill.md", "---\nname: pdf\n---\nbody\n", ""},
		{".agent/skills/mine", "SKILL.md", "mine\n", ""},
		{".claude/skills/shared", "SKILL.md", "shared\n", ""},
		{".agents/skills/passwd", "SKILL.md", "!symlink to a place outside the project", tools.CodePathOutsideRoot},
		{".agents/skills/etc", "passwd", "!symlink to a place outside the project", tools.CodePathOutsideRoot},
		{".agents/skills/pdf", "references/main.go", "!out of the skill's folder, to src/main.go", tools.CodePathOutsideRoot},
		{".agents/skills/pdf", "env.md", "!out of the skill's folder", tools.CodePathOutsideRoot},
		{".agents/skills/pdf", "references/.env", "!usually holds secrets", tools.CodePolicyDenied},
		{".agents/skills/pdf", "references/bin.md", "!NUL bytes", tools.CodeUnsupportedType},
		{".agents/skills/pdf", "fifo.md", "!FIFO", tools.CodeUnsupportedType},
		{".agents/skills/pdf", "loop", "!symlink loop", tools.CodeUnsupportedType},
		{".agents/skills/pdf", "cmds/c.md", "!inside .agent", tools.CodePathOutsideRoot},
		{".agents/skills/pdf", "references", "!folder", tools.CodeUnsupportedType},
		{".agents/skills/pdf", "../shared/SKILL.md", "!climbs out", tools.CodePathOutsideRoot},
		{".agents/skills/pdf", "/etc/passwd", "!absolute path", tools.CodePathOutsideRoot},
		{".agents/skills/pdf", "", "!names no file", tools.CodeSchemaInvalid},
		{".agents/skills/pdf", "missing.md", "!not exist", tools.CodeFileNotFound},
		{".agent/skills/sessions", "s.jsonl", "!inside .agent", tools.CodePathOutsideRoot},
		{".agent/sessions", "s.jsonl", "!inside .agent", tools.CodePathOutsideRoot},
		{".claude/skills/src", "main.go", "package main\n", ""}, // a folder of the project: its own files only
		{"missing/skill", "SKILL.md", "!not exist", tools.CodeFileNotFound},
	} {
		what := "ReadSkill(" + c.dir + ", " + c.file + ")"
		data, _, err := p.root.ReadSkill(c.dir, c.file, 1<<10)
		checkRead(t, what, data, err, c.want)
		if got := sandbox.RefusalCode(err); got != c.code {
			t.Errorf("%s: code %q, want %q", what, got, c.code)
		}
	}

	// Listings: names, sorted, symlinks not followed; .agent/skills may
	// be listed, nothing else in .agent.
	ents, err := p.root.ListSkillDir(".agents/skills", 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := entryNames(ents); got != "etc@ passwd/ pdf/ shared/" {
		t.Errorf("ListSkillDir(.agents/skills) = %s", got)
	}
	if ents, err := p.root.ListSkillDir(".agents/skills", 2); err != nil || len(ents) != 3 {
		t.Errorf("ListSkillDir with max 2 = %d entries, %v; want 3, telling there are more", len(ents), err)
	}
	if ents, err := p.root.ListSkillDir(".agent/skills", 10); err != nil || entryNames(ents) != "mine/ sessions@" {
		t.Errorf("ListSkillDir(.agent/skills) = %s, %v", entryNames(ents), err)
	}
	for dir, want := range map[string]string{
		".agent":             "inside .agent",
		".agent/sessions":    "inside .agent",
		"../x":               "climbs out",
		".agents/skills/etc": "outside the project",
		".agents/skills/x":   "not exist",
		".env":               "not a folder",
	} {
		if _, err := p.root.ListSkillDir(dir, 10); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ListSkillDir(%s) error = %v, want one saying %q", dir, err, want)
		}
	}
}

func entryNames(ents []os.DirEntry) string {
	var names []string
	for _, e := range ents {
		n := e.Name()
		switch {
		case e.Type()&os.ModeSymlink != 0:
			n += "@"
		case e.IsDir():
			n += "/"
		}
		names = append(names, n)
	}
	return strings.Join(names, " ")
}

// TestReadUserSkill: the user's skill folder may itself be a link (to
// their dotfiles), but its files stay inside it, and the kernel's files,
// pipes and secrets stay out.
func TestReadUserSkill(t *testing.T) {
	skills, dotfiles := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(dotfiles, "deploy", "SKILL.md"), "deploy\n")
	writeFile(t, filepath.Join(dotfiles, "deploy", "references", "hosts.md"), "hosts\n")
	writeFile(t, filepath.Join(dotfiles, "notes.md"), "private notes\n")
	writeFile(t, filepath.Join(skills, "plain", "SKILL.md"), "plain\n")
	for name, target := range map[string]string{
		"deploy":              filepath.Join(dotfiles, "deploy"),
		"plain/notes.md":      filepath.Join(dotfiles, "notes.md"),
		"plain/environ.md":    "/proc/self/environ",
		"plain/aws.md":        filepath.Join(dotfiles, ".aws", "credentials"),
		"proc":                "/proc/self",
		"plain/loop.md":       "loop.md",
		"plain/references/up": "..",
	} {
		full := filepath.Join(skills, name)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, full); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(dotfiles, ".aws", "credentials"), "key\n")
	if err := syscall.Mkfifo(filepath.Join(skills, "plain", "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, file, want string }{
		{"plain", "SKILL.md", "plain\n"},
		{"deploy", "SKILL.md", "deploy\n"},
		{"deploy", "references/hosts.md", "hosts\n"},
		{"plain", "references/up/SKILL.md", "plain\n"},
		{"plain", "notes.md", "!out of the skill's folder"},
		{"plain", "environ.md", "!out of the skill's folder"},
		{"plain", "aws.md", "!out of the skill's folder"},
		{"plain", "fifo.md", "!FIFO"},
		{"plain", "loop.md", "!symlink loop"},
		{"plain", "../deploy/SKILL.md", "!climbs out"},
		{"plain", "/etc/passwd", "!absolute path"},
		{"proc", "environ", "!not a folder of yours"},
		{"missing", "SKILL.md", "!not exist"},
	} {
		data, _, err := sandbox.ReadUserSkill(filepath.Join(skills, c.dir), c.file, 1<<10)
		checkRead(t, "ReadUserSkill("+c.dir+", "+c.file+")", data, err, c.want)
	}
	ents, err := sandbox.ListUserDir(skills, 10)
	if err != nil || entryNames(ents) != "deploy@ plain/ proc@" {
		t.Errorf("ListUserDir = %s, %v", entryNames(ents), err)
	}
	if _, err := sandbox.ListUserDir(filepath.Join(skills, "proc"), 10); err == nil {
		t.Error("ListUserDir lists a folder of the kernel's")
	}
}

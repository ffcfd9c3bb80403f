//go:build unix

package subagents

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/agentcli/agent/tools/sandbox"
)

func write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

// reviewer is an agent file as Claude Code's documentation writes one.
const reviewer = `---
name: reviewer
description: Reviews code for quality and security. Use proactively after writing code.
tools: Read, Grep, Glob, WebSearch
model: claude-sonnet-4-5
max_turns: 30
color: red
---

You are a senior code reviewer. Check the diff, then report.
`

// fixture is a project and a user folder with agents in every place:
// valid ones, same-named ones, broken ones and hostile links.
func fixture(t *testing.T) (project, user string) {
	project, user = t.TempDir(), filepath.Join(t.TempDir(), "agents")
	write(t, project, map[string]string{
		".claude/agents/reviewer.md":  reviewer,
		".agents/agents/reviewer.md":  "---\nname: reviewer\ndescription: The team's reviewer.\n---\nReview.\n",
		".agent/agents/writer.md":     "---\nname: writer\ndescription: Writes docs.\ntools:\n  - read_file\n  - Write\n  - Edit\n---\nWrite docs.\n",
		".claude/agents/broken.md":    "---\nname: Broken_One\ndescription: x\n---\n",
		".claude/agents/typo.md":      "---\nname: typo\ndescription: x\ntools: Read, Raed\n---\n",
		".claude/agents/plain.md":     "just text, no front matter\n",
		".claude/agents/notes.txt":    "not an agent\n",
		".claude/agents/sub/x.md":     "---\nname: sub\ndescription: in a folder\n---\n",
		".claude/agents/explore.md":   "---\nname: explore\ndescription: a project's explore\ntools: Bash\n---\n",
		".agent/sessions/s.jsonl":     "{\"secret\":\"from a session\"}\n",
		".claude/agents/huge.md":      "---\nname: huge\ndescription: big\n---\n" + strings.Repeat("x", maxFileBytes),
		".claude/agents/sessions.md":  "",
		".claude/agents/longturns.md": "---\nname: longturns\ndescription: d\nmax_turns: 30\n---\n",
	})
	os.Remove(filepath.Join(project, ".claude/agents/sessions.md"))
	symlink(t, "../../.agent/sessions/s.jsonl", filepath.Join(project, ".claude/agents/sessions.md"))
	symlink(t, "/etc/passwd", filepath.Join(project, ".claude/agents/passwd.md"))
	symlink(t, "../../.agents/agents/reviewer.md", filepath.Join(project, ".claude/agents/shared.md"))
	write(t, user, map[string]string{
		"mine.md":     "---\nname: mine\ndescription: The user's own.\nmodel: gpt-5-mini\n---\nDo it my way.\n",
		"reviewer.md": "---\nname: reviewer\ndescription: The user's reviewer.\n---\n",
	})
	return project, user
}

func discover(t *testing.T, project, user string, trusted bool) *Set {
	t.Helper()
	root := sandbox.NewRoot(project, sandbox.Options{})
	t.Cleanup(func() { root.Close() })
	return Discover(Sources{Builtin: []Agent{{Name: "explore", Description: "built in", Origin: Builtin}}, Project: root, UserDir: user, Trusted: trusted})
}

func describe(as []Agent) string {
	var out []string
	for _, a := range as {
		where := a.File
		if a.Origin == User {
			where = "~/" + filepath.Base(a.File)
		}
		out = append(out, a.Name+"@"+where)
	}
	return strings.Join(out, " ")
}

// TestDiscover: the built-in agents come first, then the project's
// folders in order (.agent, .agents, .claude), then the user's; a
// same-named agent later is shadowed; a bad file, a link out of the
// project or to the agent's state is one problem naming the file; a
// folder or a file not ending in .md is no agent.
func TestDiscover(t *testing.T) {
	project, user := fixture(t)
	set := discover(t, project, user, false)
	if got, want := describe(set.Agents), "explore@ writer@.agent/agents/writer.md reviewer@.agents/agents/reviewer.md longturns@.claude/agents/longturns.md mine@~/mine.md"; got != want {
		t.Errorf("Agents = %s\nwant %s", got, want)
	}
	if got, want := describe(set.Shadowed), "explore@.claude/agents/explore.md reviewer@.claude/agents/reviewer.md reviewer@.claude/agents/shared.md reviewer@~/reviewer.md"; got != want {
		t.Errorf("Shadowed = %s\nwant %s", got, want)
	}
	var problems []string
	for _, p := range set.Problems {
		problems = append(problems, p.String())
	}
	want := []string{
		`agent file .claude/agents/broken.md skipped: the name "Broken_One" may hold only lowercase letters, digits and hyphens`,
		`agent file .claude/agents/huge.md skipped: it is 65572 bytes, over the 64 KiB an agent file may take`,
		`agent file .claude/agents/passwd.md skipped: it is a symlink to a place outside the project`,
		`agent file .claude/agents/plain.md skipped: it has no front matter (a --- block with name and description)`,
		`agent file .claude/agents/sessions.md skipped: it is inside .agent, which the file tools never touch`,
		`agent file .claude/agents/typo.md skipped: tools names "Raed", which is neither a tool of this agent nor one of Claude Code's`,
	}
	if strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("Problems =\n%s\nwant\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
	if lt, _ := set.Find("longturns"); lt.MaxTurns != DefaultMaxTurns {
		t.Errorf("an untrusted project's max_turns 30 = %d, want %d", lt.MaxTurns, DefaultMaxTurns)
	}
	w, _ := set.Find("writer")
	if got := strings.Join(w.Tools, ","); got != "read_file,write_file" {
		t.Errorf("writer's tools = %s, want read_file,write_file (Write and Edit are write_file, once)", got)
	}
}

// TestClaudeCodeFile: Claude Code's agent file works as written: its
// tools by their names here, its other keys ignored, its body the
// instructions; the model and the turns of an untrusted project's file
// are not applied, a trusted one's are, the user's always are.
func TestClaudeCodeFile(t *testing.T) {
	project, user := t.TempDir(), filepath.Join(t.TempDir(), "agents")
	write(t, project, map[string]string{".claude/agents/reviewer.md": reviewer})
	write(t, user, map[string]string{"mine.md": "---\nname: mine\ndescription: d\nmodel: gpt-5-mini\nmax_turns: 40\n---\n"})

	set := discover(t, project, user, false)
	a, ok := set.Find("reviewer")
	if !ok {
		t.Fatalf("reviewer not found: %v", set.Problems)
	}
	if got := strings.Join(a.Tools, ","); got != "read_file,search_files,list_directory" {
		t.Errorf("tools = %s, want read_file,search_files,list_directory", got)
	}
	if a.Instructions != "You are a senior code reviewer. Check the diff, then report." {
		t.Errorf("instructions = %q", a.Instructions)
	}
	if a.Model != "" || a.MaxTurns != DefaultMaxTurns {
		t.Errorf("untrusted project: model %q, max_turns %d; want the conversation's model and %d", a.Model, a.MaxTurns, DefaultMaxTurns)
	}
	wantIgnored := "tools WebSearch: nothing of the kind here; model claude-sonnet-4-5: the project is not trusted; max_turns 30: the project is not trusted, so at most 12"
	if got := strings.Join(a.Ignored, "; "); got != wantIgnored {
		t.Errorf("Ignored = %s\nwant %s", got, wantIgnored)
	}
	mine, _ := set.Find("mine")
	if mine.Model != "gpt-5-mini" || mine.MaxTurns != 40 {
		t.Errorf("the user's agent: model %q, max_turns %d; want its own", mine.Model, mine.MaxTurns)
	}

	trusted, _ := discover(t, project, "", true).Find("reviewer")
	if trusted.Model != "claude-sonnet-4-5" || trusted.MaxTurns != 30 {
		t.Errorf("trusted project: model %q, max_turns %d; want the file's", trusted.Model, trusted.MaxTurns)
	}
}

// TestParse: what a front matter may say, and what it may not.
func TestParse(t *testing.T) {
	ok := []struct {
		name, doc, tools, model string
	}{
		{"no tools: the read-only ones", "---\nname: a\ndescription: d\n---\n", "read_file,list_directory,search_files,skill", ""},
		{"empty tools: the read-only ones", "---\nname: a\ndescription: d\ntools:\n---\n", "read_file,list_directory,search_files,skill", ""},
		{"a flow list", "---\nname: a\ndescription: d\ntools: [Read, search_files]\n---\n", "read_file,search_files", ""},
		{"a block list", "---\nname: a\ndescription: d\ntools:\n  - Read\n  - Bash\n---\n", "read_file,run_command", ""},
		{"only Claude Code's own tools: none", "---\nname: a\ndescription: d\ntools: TodoWrite, Task\n---\n", "", ""},
		{"MCP tools", "---\nname: a\ndescription: d\ntools: mcp__github__create_issue, Bash\n---\n", "mcp__github__create_issue,run_command", ""},
		{"inherit", "---\nname: a\ndescription: d\nmodel: inherit\n---\n", "read_file,list_directory,search_files,skill", ""},
		{"Claude Code's alias", "---\nname: a\ndescription: d\nmodel: sonnet\n---\n", "read_file,list_directory,search_files,skill", ""},
		{"a model", "---\nname: a\ndescription: d\nmodel: openai/gpt-5-mini\n---\n", "read_file,list_directory,search_files,skill", "openai/gpt-5-mini"},
		{"task is never an agent's", "---\nname: a\ndescription: d\ntools: task, read_file\n---\n", "read_file", ""},
	}
	for _, c := range ok {
		a, err := Parse(c.doc)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := strings.Join(a.Tools, ","); got != c.tools || a.Model != c.model {
			t.Errorf("%s: tools %s, model %q; want %s, %q", c.name, got, a.Model, c.tools, c.model)
		}
	}
	bad := map[string]string{
		"no name":          "---\ndescription: d\n---\n",
		"no description":   "---\nname: a\n---\n",
		"a list as name":   "---\nname:\n  - a\ndescription: d\n---\n",
		"a map as tools":   "---\nname: a\ndescription: d\ntools:\n  read: yes\n---\n",
		"max_turns zero":   "---\nname: a\ndescription: d\nmax_turns: 0\n---\n",
		"max_turns a word": "---\nname: a\ndescription: d\nmax_turns: many\n---\n",
		"max_turns 51":     "---\nname: a\ndescription: d\nmax_turns: 51\n---\n",
		"a model of words": "---\nname: a\ndescription: d\nmodel: rm -rf /\n---\n",
		"a long desc":      "---\nname: a\ndescription: " + strings.Repeat("d", maxDescription+1) + "\n---\n",
		"never closed":     "---\nname: a\ndescription: d\n",
		"a path as a tool": "---\nname: a\ndescription: d\ntools: ../bin/sh\n---\n",
	}
	for name, doc := range bad {
		if _, err := Parse(doc); err == nil {
			t.Errorf("%s: accepted", name)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: the error is not one line: %q", name, err)
		}
	}
}

// TestDiscoverHostileFolders: an agents folder that is a link out of the
// project, or full of entries, or holding a FIFO, is one problem each,
// not a hang.
func TestDiscoverHostileFolders(t *testing.T) {
	project := t.TempDir()
	symlink(t, "/etc", filepath.Join(project, ".agents/agents"))
	for i := range maxEntries + 5 {
		write(t, project, map[string]string{".claude/agents/a" + strconv.Itoa(i) + ".md": "---\nname: a" + strconv.Itoa(i) + "\ndescription: d\n---\n"})
	}
	write(t, project, map[string]string{".agent/agents/x": ""})
	if err := syscall.Mkfifo(filepath.Join(project, ".agent/agents/fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	set := discover(t, project, "", false)
	var problems []string
	for _, p := range set.Problems {
		problems = append(problems, p.String())
	}
	want := "agent file .agent/agents/fifo.md skipped: it is a FIFO, not a regular file\n" +
		"agent file .agents/agents skipped: it is a symlink to a place outside the project\n" +
		"agent file .claude/agents skipped: it holds more than 100 entries; only 100 are read"
	if got := strings.Join(problems, "\n"); got != want {
		t.Errorf("Problems =\n%s\nwant\n%s", got, want)
	}
	if len(set.Agents) != 1+maxEntries {
		t.Errorf("%d agents, want the built-in one and %d", len(set.Agents), maxEntries)
	}
}

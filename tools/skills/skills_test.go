//go:build unix

package skills

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
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

func skillFile(name, desc, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n\n" + body
}

// fixture is a project and a user folder with skills in every place:
// valid ones, same-named ones, broken ones and hostile links.
func fixture(t *testing.T) (project, user string) {
	project, user = t.TempDir(), filepath.Join(t.TempDir(), "skills")
	write(t, project, map[string]string{
		".agents/skills/pdf/SKILL.md":           skillFile("pdf", "Fill PDF forms.", "# PDF\n\nRun scripts/fill.py.\n"),
		".agents/skills/pdf/references/api.md":  "the api\n",
		".agents/skills/pdf/scripts/fill.py":    "print('fill')\n",
		".agents/skills/pdf/.hidden":            "x\n",
		".agents/skills/explain-code/SKILL.md":  "---\nname: explain-code\ndescription: Explains code with diagrams. Use when the user asks: how does this work?\nallowed-tools: Read, Grep\nargument-hint: [file]\n---\n\nDraw a diagram.\n",
		".agents/skills/broken/SKILL.md":        "---\nname: Broken\ndescription: x\n---\n",
		".agents/skills/unclosed/SKILL.md":      "---\nname: unclosed\ndescription: x\n",
		".agents/skills/README.md":              "not a skill\n",
		".agents/skills/empty/notes.txt":        "no SKILL.md here\n",
		".agent/skills/deploy/SKILL.md":         skillFile("deploy", "Deploy the site (ours).", "Deploy with make deploy.\n"),
		".claude/skills/deploy/SKILL.md":        skillFile("deploy", "Deploy the site (Claude's).", "Not this one.\n"),
		".agents/skills/deploy/SKILL.md":        skillFile("deploy", "Deploy the site (everyone's).", "Not this one either.\n"),
		".agent/sessions/s.jsonl":               "{\"secret\":\"from a session\"}\n",
		"src/main.go":                           "package main\n",
		".agents/skills/pdf/references/big.md":  strings.Repeat("big\n", 100),
		".agents/skills/explain-code/notes.txt": "notes\n",
	})
	symlink(t, "../../.agents/skills/pdf", filepath.Join(project, ".claude/skills/pdf"))
	symlink(t, "/etc/passwd", filepath.Join(project, ".agents/skills/passwd/SKILL.md"))
	symlink(t, "/etc", filepath.Join(project, ".agents/skills/etc"))
	symlink(t, "../../explain-code/SKILL.md", filepath.Join(project, ".agents/skills/pdf/references/other.md"))
	symlink(t, "../../../src/main.go", filepath.Join(project, ".agents/skills/pdf/main.go"))
	write(t, user, map[string]string{
		"pdf/SKILL.md":        skillFile("pdf", "The user's pdf.", "Not this one.\n"),
		"notes/SKILL.md":      skillFile("notes", "Keep notes the user's way.", "Write notes in notes/.\n"),
		"notes/scripts/n.sh":  "echo n\n",
		"hidden-one/SKILL.md": "---\nname: hidden-one\ndescription: Only a person starts this.\ndisable-model-invocation: true\n---\nbody\n",
	})
	return project, user
}

func discover(t *testing.T, project, user string) (*Set, *sandbox.Root) {
	t.Helper()
	root := sandbox.NewRoot(project, sandbox.Options{})
	t.Cleanup(func() { root.Close() })
	return Discover(Sources{Project: root, UserDir: user}), root
}

func describe(sks []Skill) string {
	var out []string
	for _, s := range sks {
		where := s.Dir
		if s.User {
			where = "~/" + filepath.Base(s.Dir)
		}
		out = append(out, s.Name+"@"+where)
	}
	return strings.Join(out, " ")
}

// TestDiscover: every place is read, the project's folders in order
// (.agent, .agents, .claude) before the user's; a same-named skill later
// is shadowed; a bad skill or a link out of the project is one problem
// naming its folder; folders without SKILL.md and files are no skills.
func TestDiscover(t *testing.T) {
	project, user := fixture(t)
	set, _ := discover(t, project, user)
	if got, want := describe(set.Skills), "deploy@.agent/skills/deploy explain-code@.agents/skills/explain-code pdf@.agents/skills/pdf hidden-one@~/hidden-one notes@~/notes"; got != want {
		t.Errorf("Skills = %s\nwant %s", got, want)
	}
	if got, want := describe(set.Shadowed), "deploy@.agents/skills/deploy deploy@.claude/skills/deploy pdf@.claude/skills/pdf pdf@~/pdf"; got != want {
		t.Errorf("Shadowed = %s\nwant %s", got, want)
	}
	if got, want := describe(set.Offered()), "deploy@.agent/skills/deploy explain-code@.agents/skills/explain-code pdf@.agents/skills/pdf notes@~/notes"; got != want {
		t.Errorf("Offered = %s\nwant %s", got, want)
	}
	var problems []string
	for _, p := range set.Problems {
		problems = append(problems, p.String())
	}
	want := []string{
		`skill .agents/skills/broken skipped: the name "Broken" may hold only lowercase letters, digits and hyphens`,
		`skill .agents/skills/etc skipped: it is a symlink to a place outside the project`,
		`skill .agents/skills/passwd skipped: SKILL.md: it is a symlink to a place outside the project`,
		`skill .agents/skills/unclosed skipped: SKILL.md: the front matter has no closing --- line`,
	}
	if strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("Problems =\n%s\nwant\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
	sk, _ := set.Find("explain-code")
	if sk.Description != "Explains code with diagrams. Use when the user asks: how does this work?" {
		t.Errorf("the Claude Code skill's description = %q", sk.Description)
	}

	// Nothing anywhere: no skills, no problems, no tool.
	empty := Discover(Sources{Project: sandbox.NewRoot(t.TempDir(), sandbox.Options{}), UserDir: filepath.Join(t.TempDir(), "none")})
	if len(empty.Skills)+len(empty.Problems) != 0 || empty.Tool(1<<20) != nil {
		t.Errorf("an empty project: %d skills, %v, tool %v", len(empty.Skills), empty.Problems, empty.Tool(1<<20))
	}
	// Only a skill the model may not start: no tool either.
	only := t.TempDir()
	write(t, only, map[string]string{"hidden-one/SKILL.md": "---\nname: hidden-one\ndescription: d\ndisable-model-invocation: true\n---\n"})
	if tool := Discover(Sources{UserDir: only}).Tool(1 << 20); tool != nil {
		t.Error("a skill tool with nothing to offer")
	}
}

// TestDiscoverHostileFolders: a skills folder that is itself a link out
// of the project, or full of entries, is one problem, not a hang.
func TestDiscoverHostileFolders(t *testing.T) {
	project := t.TempDir()
	symlink(t, "/etc", filepath.Join(project, ".agents/skills"))
	for i := range maxEntries + 5 {
		write(t, project, map[string]string{".claude/skills/s" + strconv.Itoa(i) + "/notes.txt": "x"})
	}
	set, _ := discover(t, project, "")
	var problems []string
	for _, p := range set.Problems {
		problems = append(problems, p.String())
	}
	want := "skill .agents/skills skipped: it is a symlink to a place outside the project\n" +
		"skill .claude/skills skipped: it holds more than 200 entries; only 200 are read"
	if got := strings.Join(problems, "\n"); got != want {
		t.Errorf("Problems =\n%s\nwant\n%s", got, want)
	}
}

// TestTool: the skill tool loads instructions without the front matter,
// with the skill's files listed, and files of the skill's folder; in
// .agent/skills and the user's folder too, which read_file refuses.
func TestTool(t *testing.T) {
	project, user := fixture(t)
	set, root := discover(t, project, user)
	tool := set.Tool(200)
	if tool == nil {
		t.Fatal("no skill tool")
	}
	sess := fsedit.NewSession(root)
	reg := tools.NewRegistry(append(sess.Tools(), tool)...)
	ctx := t.Context()
	call := func(args map[string]string) tools.Result {
		t.Helper()
		res, err := reg.Call(ctx, ToolName, args)
		if err != nil {
			t.Fatalf("skill %v: %v", args, err)
		}
		return res
	}
	meta := func(res tools.Result, name string) string {
		for _, a := range res.Metadata {
			if a.Name == name {
				return a.Value
			}
		}
		return ""
	}

	res := call(map[string]string{"name": "pdf"})
	if res.IsError() || res.Content != "# PDF\n\nRun scripts/fill.py.\n" {
		t.Errorf("pdf's instructions = %q (%s %s), want the body without the front matter", res.Content, res.Code, res.Message)
	}
	if got := meta(res, "files"); got != "main.go references/api.md references/big.md references/other.md scripts/fill.py" {
		t.Errorf("pdf's files = %q", got)
	}
	if !strings.Contains(res.Message, "from .agents/skills/pdf") || !strings.Contains(res.Message, "run_command as .agents/skills/pdf/scripts/NAME") {
		t.Errorf("pdf's message = %q", res.Message)
	}
	if res := call(map[string]string{"name": "pdf", "file": "references/api.md"}); res.IsError() || res.Content != "the api\n" {
		t.Errorf("pdf's references/api.md = %q (%s %s)", res.Content, res.Code, res.Message)
	}

	// .agent/skills: the tool reads it, read_file does not.
	if res := call(map[string]string{"name": "deploy"}); res.IsError() || res.Content != "Deploy with make deploy.\n" {
		t.Errorf("deploy = %q (%s %s), want the .agent/skills one", res.Content, res.Code, res.Message)
	}
	if res, _ := reg.Call(ctx, "read_file", map[string]string{"file_path": ".agent/skills/deploy/SKILL.md"}); res.Code != tools.CodePathOutsideRoot {
		t.Errorf("read_file of .agent/skills = %s %s, want it refused", res.Code, res.Message)
	}
	// The user's: readable through the tool, its scripts not runnable.
	res = call(map[string]string{"name": "notes"})
	if res.IsError() || res.Content != "Write notes in notes/.\n" || !strings.Contains(res.Message, "from the user's skills folder") ||
		!strings.Contains(res.Message, "scripts cannot run here") || meta(res, "files") != "scripts/n.sh" {
		t.Errorf("notes = %q, %q, files %q", res.Content, res.Message, meta(res, "files"))
	}

	for _, c := range []struct {
		args       map[string]string
		code, want string
	}{
		{map[string]string{"name": "nope"}, tools.CodeFileNotFound, `no skill is called "nope"; the skills are: deploy, explain-code, pdf, notes`},
		{map[string]string{"name": "hidden-one"}, tools.CodeFileNotFound, "no skill is called"},
		{map[string]string{"name": "pdf", "file": "missing.md"}, tools.CodeFileNotFound, "skill pdf: missing.md: it does not exist"},
		{map[string]string{"name": "pdf", "file": "../explain-code/SKILL.md"}, tools.CodePathOutsideRoot, "climbs out of the skill's folder"},
		{map[string]string{"name": "pdf", "file": "references/other.md"}, tools.CodePathOutsideRoot, "out of the skill's folder, to .agents/skills/explain-code/SKILL.md"},
		{map[string]string{"name": "pdf", "file": "main.go"}, tools.CodePathOutsideRoot, "out of the skill's folder, to src/main.go"},
		{map[string]string{"name": "pdf", "file": "/etc/passwd"}, tools.CodePathOutsideRoot, "absolute path"},
		{map[string]string{"name": "pdf", "file": "references/big.md"}, tools.CodeFileTooLarge, "400 bytes, over the read limit of 200"},
		{map[string]string{"name": "pdf", "file": "references"}, tools.CodeUnsupportedType, "folder"},
		{map[string]string{"file": "x"}, tools.CodeSchemaInvalid, "name"},
	} {
		res, err := reg.Call(ctx, ToolName, c.args)
		if err != nil || res.Code != c.code || !strings.Contains(res.Message, c.want) {
			t.Errorf("skill %v = %s %q, %v; want %s saying %q", c.args, res.Code, res.Message, err, c.code, c.want)
		}
	}

	// A skill changed since discovery is checked again when loaded.
	write(t, project, map[string]string{".agents/skills/pdf/SKILL.md": "---\nname: other\ndescription: d\n---\nbody\n"})
	if res := call(map[string]string{"name": "pdf"}); res.Code != tools.CodeFileNotFound || !strings.Contains(res.Message, "no longer valid") {
		t.Errorf("a skill renamed meanwhile = %s %q", res.Code, res.Message)
	}
}

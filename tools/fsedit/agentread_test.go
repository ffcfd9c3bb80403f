//go:build unix

package fsedit

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentcli/agent/tools/sandbox"
)

// TestReadText: the agent's own reads of project files (instruction
// files, custom commands) follow read_file's rules, judging each symlink
// by where it lands.
func TestReadText(t *testing.T) {
	p := newProject(t, map[string]string{
		"AGENTS.md":                 "be brief\n",
		"docs/rules.md":             "use tabs\n",
		".env":                      "KEY=sk-secret\n",
		".git/config":               "[core]\n\tfsmonitor = evil\n",
		".agent/sessions/s.jsonl":   "{\"secret\":\"from a session\"}\n",
		".agent/commands/ok.md":     "Review $ARGUMENTS\n",
		".agent/config.toml":        "x = 1\n",
		"big.md":                    strings.Repeat("a", 100),
		"bin.md":                    "a\x00b",
		".agent/commands/deep/x.md": "x\n",
	})
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(p.dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(p.dir, "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	link("docs/rules.md", "inside.md")
	link(".env", "env.md")
	link("/proc/self/environ", "environ.md")
	link("/dev/zero", "zero.md")
	link(".git/config", "git.md")
	link(".agent/sessions/s.jsonl", "session.md")
	link("loop.md", "loop.md")
	link("fifo.md", "tofifo.md")
	cmds := filepath.Join(p.dir, ".agent", "commands")
	for name, target := range map[string]string{
		"environ.md": "/proc/self/environ", "zero.md": "/dev/zero", "env.md": "../../.env",
		"session.md": "../sessions/s.jsonl", "config.md": "../config.toml", "rules.md": "../../docs/rules.md",
		"git.md": "../../.git/config", "abs.md": filepath.Join(p.dir, ".agent", "sessions", "s.jsonl"),
	} {
		if err := os.Symlink(target, filepath.Join(cmds, name)); err != nil {
			t.Fatal(err)
		}
	}

	for _, c := range []struct {
		name, want string // want: the text, or "!" and words of the reason
	}{
		{"AGENTS.md", "be brief\n"},
		{"inside.md", "use tabs\n"},
		{"env.md", "!leads to .env, which usually holds secrets"},
		{".env", "!usually holds secrets"},
		{"environ.md", "!outside the project"},
		{"zero.md", "!outside the project"},
		{"git.md", "!inside .git"},
		{".git/config", "!inside .git"},
		{"session.md", "!inside .agent"},
		{".agent/commands/ok.md", "!inside .agent"}, // only through ReadCommand
		{"loop.md", "!symlink loop"},
		{"fifo.md", "!FIFO"},
		{"tofifo.md", "!FIFO"},
		{"bin.md", "!NUL bytes"},
		{"docs", "!folder"},
		{"missing.md", "!not exist"},
	} {
		data, _, err := p.root.ReadText(c.name, 1<<10)
		checkRead(t, "ReadText("+c.name+")", data, err, c.want)
	}

	for _, c := range []struct{ name, want string }{
		{"ok.md", "Review $ARGUMENTS\n"},
		{"rules.md", "use tabs\n"},
		{"environ.md", "!outside the project"},
		{"zero.md", "!outside the project"},
		{"env.md", "!secrets"},
		{"session.md", "!inside .agent"},
		{"abs.md", "!inside .agent"},
		{"config.md", "!inside .agent"},
		{"git.md", "!inside .git"},
		{"../config.toml", "!not a command file name"},
		{"deep/x.md", "!not a command file name"},
		{"missing.md", "!not exist"},
	} {
		data, _, err := p.root.ReadCommand(c.name, 1<<10)
		checkRead(t, "ReadCommand("+c.name+")", data, err, c.want)
	}

	// The bound: at most max bytes, and the size to tell the rest.
	data, size, err := p.root.ReadText("big.md", 10)
	if err != nil || len(data) != 10 || size != 100 {
		t.Errorf("ReadText(big.md, 10) = %d bytes, size %d, %v; want 10 of 100", len(data), size, err)
	}
	// A .agent/commands that is itself a link is judged the same way.
	os.RemoveAll(cmds)
	if err := os.Symlink("../.git", cmds); err != nil {
		t.Fatal(err)
	}
	_, _, err = p.root.ReadCommand("config", 1<<10)
	checkRead(t, "ReadCommand through .agent/commands -> .git", nil, err, "!inside .git")
}

// TestReadUserText: the user's own folder may link anywhere they keep
// files, but not into the kernel's files, devices, pipes or secrets.
func TestReadUserText(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(dir, "plain.md"), "hello\n")
	writeFile(t, filepath.Join(elsewhere, "dotfiles.md"), "from my dotfiles\n")
	writeFile(t, filepath.Join(elsewhere, ".aws", "credentials"), "key\n")
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"environ.md": "/proc/self/environ", "zero.md": "/dev/zero", "sys.md": "/sys/kernel/mm/transparent_hugepage/enabled",
		"dot.md": filepath.Join(elsewhere, "dotfiles.md"), "aws.md": filepath.Join(elsewhere, ".aws", "credentials"),
		"loop.md": "loop.md", "pipe.md": "fifo.md",
	} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ name, want string }{
		{"plain.md", "hello\n"},
		{"dot.md", "from my dotfiles\n"},
		{"environ.md", "!/proc/"},
		{"zero.md", "!/dev/zero"},
		{"sys.md", "!/sys/"},
		{"aws.md", "!secrets"},
		{"loop.md", "!symlink loop"},
		{"fifo.md", "!FIFO"},
		{"pipe.md", "!FIFO"},
		{"missing.md", "!not exist"},
	} {
		done := make(chan struct{})
		var (
			data []byte
			err  error
		)
		go func() {
			data, _, err = sandbox.ReadUserText(filepath.Join(dir, c.name), 1<<10)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("ReadUserText(%s) hangs", c.name)
		}
		checkRead(t, "ReadUserText("+c.name+")", data, err, c.want)
	}
}

func checkRead(t *testing.T, what string, data []byte, err error, want string) {
	t.Helper()
	reason, refused := strings.CutPrefix(want, "!")
	switch {
	case !refused && err != nil:
		t.Errorf("%s: %v, want %q", what, err, want)
	case !refused && string(data) != want:
		t.Errorf("%s = %q, want %q", what, data, want)
	case refused && err == nil:
		t.Errorf("%s = %q, want it refused (%s)", what, data, reason)
	case refused && reason == "not exist" && !errors.Is(err, fs.ErrNotExist):
		t.Errorf("%s: %v, want fs.ErrNotExist", what, err)
	case refused && reason != "not exist" && !strings.Contains(err.Error(), reason):
		t.Errorf("%s: %q, want it to say %q", what, err, reason)
	case err != nil && strings.ContainsAny(err.Error(), "\n"):
		t.Errorf("%s: the reason is not one line: %q", what, err)
	}
}

// TestReadersRefuseHardLinks: a hard link is the very inode of its other
// name, which no path says: the agent's own readers (instruction files,
// custom commands, skills) refuse a regular file with more than one
// name, in a few words with a protocol code, while the same content
// under one name reads.
func TestReadersRefuseHardLinks(t *testing.T) {
	p := newProject(t, map[string]string{
		".env":                        "KEY=sk-secret\n",
		".agent/commands/ok.md":       "Review $ARGUMENTS\n",
		".agents/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: d\n---\nbody\n",
		".agents/skills/pdf/solo.md":  "solo\n",
		"sub/AGENTS.md":               "be brief\n",
	})
	for _, name := range []string{"AGENTS.md", ".agent/commands/hard.md", ".agents/skills/pdf/ref.md"} {
		if err := os.Link(filepath.Join(p.dir, ".env"), filepath.Join(p.dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what string, data []byte, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "hard link") || sandbox.RefusalCode(err) != "TOOL_POLICY_DENIED" || strings.Contains(string(data), "sk-secret") {
			t.Errorf("%s of a hard link to .env = %q, %v (code %q); want a TOOL_POLICY_DENIED refusal naming the hard link", what, data, err, sandbox.RefusalCode(err))
		}
	}
	data, _, err := p.root.ReadText("AGENTS.md", 1<<10)
	check("ReadText(AGENTS.md)", data, err)
	data, _, err = p.root.ReadCommand("hard.md", 1<<10)
	check("ReadCommand(hard.md)", data, err)
	data, _, err = p.root.ReadSkill(".agents/skills/pdf", "ref.md", 1<<10)
	check("ReadSkill(ref.md)", data, err)

	if data, _, err := p.root.ReadText("sub/AGENTS.md", 1<<10); err != nil || string(data) != "be brief\n" {
		t.Errorf("ReadText of a file with one name = %q, %v", data, err)
	}
	if data, _, err := p.root.ReadCommand("ok.md", 1<<10); err != nil || len(data) == 0 {
		t.Errorf("ReadCommand of a file with one name = %q, %v", data, err)
	}
	if data, _, err := p.root.ReadSkill(".agents/skills/pdf", "solo.md", 1<<10); err != nil || string(data) != "solo\n" {
		t.Errorf("ReadSkill of a file with one name = %q, %v", data, err)
	}
}

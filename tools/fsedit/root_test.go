//go:build unix

package fsedit

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

func TestPathRules(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.txt"), "secret\n")
	p := newProject(t, map[string]string{
		"a/b/c.md":        "deep\n",
		"notes.md":        "notes\n",
		"with space.md":   "spaced\n",
		"ünïcødé/日本.md":   "unicode\n",
		".git/config.txt": "[core]\n",
		".agent/x.md":     "agent\n",
		"image.png":       "png",
		"src/main.go":     "package main\n",
	})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(outside, filepath.Join(p.dir, "out")))                                    // to a folder outside
	must(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(p.dir, "secret.md"))) // to a file outside
	must(os.Symlink("..", filepath.Join(p.dir, "a", "up")))                                   // to a parent folder, inside
	must(os.Symlink("../..", filepath.Join(p.dir, "a", "b", "upup")))                         // two levels up: the root
	must(os.Symlink("../../..", filepath.Join(p.dir, "a", "b", "escape")))                    // three levels: outside
	must(os.Symlink("loop2.md", filepath.Join(p.dir, "loop1.md")))
	must(os.Symlink("loop1.md", filepath.Join(p.dir, "loop2.md")))
	must(os.Symlink("notes.md", filepath.Join(p.dir, "alias.md")))
	must(os.Symlink(".git", filepath.Join(p.dir, "gitlink")))
	must(os.Symlink("image.png", filepath.Join(p.dir, "fake.md")))
	must(syscall.Mkfifo(filepath.Join(p.dir, "pipe.md"), 0o644))
	must(os.Symlink("/dev/null", filepath.Join(p.dir, "null.md")))

	cases := []struct {
		name, path string
		code       string // "" for success
		content    string
	}{
		{"plain", "notes.md", "", "notes\n"},
		{"dot slash", "./notes.md", "", "notes\n"},
		{"dot segment", "a/./b/c.md", "", "deep\n"},
		{"dotdot inside", "a/b/../b/c.md", "", "deep\n"},
		{"absolute inside", filepath.Join(p.dir, "notes.md"), "", "notes\n"},
		{"space", "with space.md", "", "spaced\n"},
		{"unicode", "ünïcødé/日本.md", "", "unicode\n"},
		{"symlink inside", "alias.md", "", "notes\n"},
		{"symlink to parent folder", "a/up/notes.md", "", "notes\n"},
		{"symlink to root", "a/b/upup/notes.md", "", "notes\n"},
		{"dotdot escape", "./a/../../x.md", tools.CodePathOutsideRoot, ""},
		{"dotdot escape plain", "../x.md", tools.CodePathOutsideRoot, ""},
		{"absolute outside", filepath.Join(outside, "secret.txt"), tools.CodePathOutsideRoot, ""},
		{"etc passwd", "/etc/passwd", tools.CodePathOutsideRoot, ""},
		{"symlinked folder outside", "out/secret.txt", tools.CodePathOutsideRoot, ""},
		{"symlinked file outside", "secret.md", tools.CodePathOutsideRoot, ""},
		{"symlink escape via parents", "a/b/escape/x.md", tools.CodePathOutsideRoot, ""},
		{"symlink loop", "loop1.md", tools.CodeUnsupportedType, ""},
		{"git folder", ".git/config.txt", tools.CodePathOutsideRoot, ""},
		{"git folder upper case", ".GIT/config.txt", tools.CodePathOutsideRoot, ""},
		{"agent folder", ".agent/x.md", tools.CodePathOutsideRoot, ""},
		{"git through symlink", "gitlink/config.txt", tools.CodePathOutsideRoot, ""},
		{"git through dotdot", "src/../.git/config.txt", tools.CodePathOutsideRoot, ""},
		{"fifo", "pipe.md", tools.CodeUnsupportedType, ""},
		{"device via symlink", "null.md", tools.CodePathOutsideRoot, ""},
		{"extension", "image.png", tools.CodeUnsupportedType, ""},
		{"extension behind symlink", "fake.md", tools.CodeUnsupportedType, ""},
		{"folder", "src", tools.CodeUnsupportedType, ""},
		{"missing", "nope.md", tools.CodeFileNotFound, ""},
		{"file as folder", "notes.md/x.md", tools.CodeFileNotFound, ""},
		{"well-known name", "Makefile", tools.CodeFileNotFound, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := p.read(tc.path)
			if tc.code == "" {
				wantOK(t, res)
				if res.Content != tc.content {
					t.Errorf("read %q = %q, want %q", tc.path, res.Content, tc.content)
				}
				return
			}
			wantCode(t, res, tc.code)
		})
	}
}

func TestWriteRefusesOutsideAndProtected(t *testing.T) {
	outside := t.TempDir()
	p := newProject(t, nil)
	if err := os.Symlink(outside, filepath.Join(p.dir, "out")); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"../x.md", "out/x.md", ".git/x.md", ".agent/backups/x.md", "sub/.Agent/x.md", filepath.Join(outside, "x.md")} {
		res := p.write("create", path, "x\n")
		wantCode(t, res, tools.CodePathOutsideRoot, "path")
	}
	ents, _ := os.ReadDir(outside)
	if len(ents) != 0 {
		t.Errorf("something was written outside the root: %v", ents)
	}
	if _, err := os.Stat(filepath.Join(p.dir, ".git")); err == nil {
		t.Error(".git was created")
	}
}

// TestSwapForSymlinkBeforeWrite swaps a checked folder for a symlink to an
// outside folder in the window between check and use: the write must be
// refused, and nothing written outside.
func TestSwapForSymlinkBeforeWrite(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "doc.md"), "outside\n")
	p := newProject(t, map[string]string{"docs/doc.md": "inside\n"})
	wantOK(t, p.read("docs/doc.md"))

	swapped := false
	sandbox.TestHookBeforeOpen = func(rel string) {
		if rel != "docs" || swapped {
			return
		}
		swapped = true
		if err := os.Rename(filepath.Join(p.dir, "docs"), filepath.Join(p.dir, "docs.old")); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(outside, filepath.Join(p.dir, "docs")); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { sandbox.TestHookBeforeOpen = nil })

	res := p.write("rewrite", "docs/doc.md", "hacked\n")
	wantCode(t, res, tools.CodePathOutsideRoot, "changed while")
	if !swapped {
		t.Fatal("hook did not run")
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "doc.md")); string(b) != "outside\n" {
		t.Errorf("outside file = %q, want it untouched", b)
	}
	if len(tempFiles(t, outside)) != 0 {
		t.Error("temp file left outside")
	}
}

// TestSwapFileForSymlinkBeforeRead swaps the file itself.
func TestSwapFileForSymlinkBeforeRead(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.md"), "secret\n")
	p := newProject(t, map[string]string{"doc.md": "inside\n"})
	sandbox.TestHookBeforeOpen = func(string) {
		os.Remove(filepath.Join(p.dir, "doc.md"))
		os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(p.dir, "doc.md"))
	}
	t.Cleanup(func() { sandbox.TestHookBeforeOpen = nil })
	res := p.read("doc.md")
	wantCode(t, res, tools.CodePathOutsideRoot)
	if res.Content != "" {
		t.Errorf("content leaked: %q", res.Content)
	}
}

package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestIsGitDirMatchesGit: each layout is judged as git itself judges it
// (git rev-parse --git-dir run in the folder, as the person's git status
// would).
func TestIsGitDirMatchesGit(t *testing.T) {
	needGit(t)
	for _, tc := range []struct {
		name  string
		files map[string]string // "->x" makes a symlink to x; "/" a folder
		want  bool
	}{
		{"bare", map[string]string{"HEAD": "ref: refs/heads/main\n", "objects": "/", "refs": "/"}, true},
		{"detached HEAD", map[string]string{"HEAD": strings.Repeat("a", 40) + "\n", "objects": "/", "refs": "/"}, true},
		{"HEAD a link into refs", map[string]string{"HEAD": "->refs/heads/main", "objects": "/", "refs": "/"}, true},
		{"ref: with spaces", map[string]string{"HEAD": "ref:   refs/heads/x", "objects": "/", "refs": "/"}, true},
		{"commondir", map[string]string{"HEAD": "ref: refs/heads/main\n", "commondir": "build\n", "build/objects": "/", "build/refs": "/"}, true},
		{"commondir with CRLF", map[string]string{"HEAD": "ref: refs/heads/main\n", "commondir": "build\r\n", "build/objects": "/", "build/refs": "/"}, true},
		{"objects a link", map[string]string{"HEAD": "ref: refs/heads/main\n", "objects": "->elsewhere", "elsewhere": "/", "refs": "/"}, true},
		{"no refs", map[string]string{"HEAD": "ref: refs/heads/main\n", "objects": "/"}, false},
		{"HEAD not a ref", map[string]string{"HEAD": "hello\n", "objects": "/", "refs": "/"}, false},
		{"HEAD a folder", map[string]string{"HEAD": "/", "objects": "/", "refs": "/"}, false},
		{"HEAD ref outside refs", map[string]string{"HEAD": "ref: heads/main\n", "objects": "/", "refs": "/"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "d")
			for p, c := range tc.files {
				full := filepath.Join(dir, p)
				os.MkdirAll(filepath.Dir(full), 0o755)
				switch {
				case c == "/":
					os.MkdirAll(full, 0o755)
				case strings.HasPrefix(c, "->"):
					os.Symlink(c[2:], full)
				default:
					os.WriteFile(full, []byte(c), 0o644)
				}
			}
			cmd := exec.Command("git", "rev-parse", "--git-dir")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
			out, err := cmd.CombinedOutput()
			gitSays := err == nil
			if gitSays != tc.want {
				t.Fatalf("git says %v (%s), the case says %v", gitSays, out, tc.want)
			}
			if got := stillGitDir(dir); got != tc.want {
				t.Errorf("isGitDir = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestGitdirOf(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ content, want string }{
		{"gitdir: ../x\n", filepath.Join(filepath.Dir(dir), "x")},
		{"gitdir: /abs/y\r\n", "/abs/y"},
		{"gitdir:  sp", filepath.Join(dir, " sp")}, // git keeps the space
		{"gitdir:x", ""},
		{"nothing", ""},
	} {
		p := filepath.Join(dir, ".git")
		os.WriteFile(p, []byte(tc.content), 0o644)
		if got := gitdirOf(p); got != tc.want {
			t.Errorf("gitdirOf(%q) = %q, want %q", tc.content, got, tc.want)
		}
	}
}

func TestParseGitConfig(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string // key=value
	}{
		{"plain", "[core]\n\tpager = less -R\n", []string{"core.pager=less -R"}},
		{"case and subsection", "[Remote \"Origin\"]\n URL = x\n", []string{"remote.Origin.url=x"}},
		{"old subsection", "[Branch.Main]\nremote=o", []string{"branch.main.remote=o"}},
		{"quotes and escapes", "[core]\nfsmonitor = \"touch x; \\\"y\\\"\" # c\n", []string{`core.fsmonitor=touch x; "y"`}},
		{"continued", "[core]\nhooksPath = .hu\\\nsky/_\n", []string{"core.hookspath=.husky/_"}},
		{"comment chars quoted", "[alias]\nx = \"!a;b#c\"\n", []string{"alias.x=!a;b#c"}},
		{"bare name", "[core]\nbare\n", []string{"core.bare="}},
		{"include with subsection escape", "[includeIf \"gitdir:~/w\\\\\"]\npath = ../x\n", []string{`includeif.gitdir:~/w\.path=../x`}},
		{"several on a line", "[a]x=1\n[b] y = 2 ; z\n", []string{"a.x=1", "b.y=2"}},
		{"CRLF", "[core]\r\npager = p\r\n", []string{"core.pager=p"}},
		{"bad line stops", "[core]\npager = p\n!bad\n[core]\neditor = e\n", []string{"core.pager=p"}},
		{"BOM", "\uFEFF[core]\npager=p\n", []string{"core.pager=p"}},
	} {
		var got []string
		for _, s := range parseGitConfig([]byte(tc.text)) {
			got = append(got, s.key+"="+s.value)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: parseGitConfig = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestParseGitConfigAgreesWithGit: git config --list reads the same
// settings from a file full of the format's corners.
func TestParseGitConfigAgreesWithGit(t *testing.T) {
	needGit(t)
	text := "[core]\n\tpager = \"a b\"  c # x\n\thooksPath = .hu\\\nsky/_\n[includeIf \"gitdir:/x/\"]\n\tpath = ../y\n" +
		"[Filter \"Lfs\"]\n\tclean = ./bin/clean %f\n[diff.Pdf]\ntextconv=\"./t\\tx\"\n[alias]\n\tx = !f() { echo; }; f\n"
	p := filepath.Join(t.TempDir(), "config")
	os.WriteFile(p, []byte(text), 0o644)
	out, err := exec.Command("git", "config", "--file", p, "--list", "--no-includes").Output()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range parseGitConfig([]byte(text)) {
		got = append(got, s.key+"="+s.value)
	}
	want := strings.TrimSuffix(string(out), "\n")
	// git lower-cases the section and name, keeps the subsection.
	if strings.Join(got, "\n") != want {
		t.Errorf("parseGitConfig:\n%s\ngit config --list:\n%s", strings.Join(got, "\n"), want)
	}
}

// TestConfigReaderFollowsIncludes: the paths a config names, its
// includes followed (relative to the including file), relative hooks
// and programs taken from the work tree.
func TestConfigReaderFollowsIncludes(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git/config"), []byte("[include]\n\tpath = ../.gitconfig\n[includeIf \"onbranch:x\"]\n\tpath = ../missing\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".gitconfig"), []byte("[core]\n\thooksPath = .husky/_\n\tpager = ./bin/pager -R\n[filter \"x\"]\n\tsmudge = sh scripts/smudge.sh\n[include]\n\tpath = ~/inc\n[alias]\n\tst = status\n"), 0o644)
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "inc"), []byte("[credential]\n\thelper = !./helper\n[core]\n\tfsmonitor = true\n"), 0o644)
	r := configReader{home: home}
	r.read(filepath.Join(dir, ".git/config"), dir, 0)
	var got []string
	for _, p := range r.paths {
		got = append(got, p.key+" "+showPath(dir, p.path))
	}
	want := []string{
		"include.path .gitconfig",
		"core.hookspath .husky/_",
		"core.pager bin/pager",
		"filter.x.smudge scripts/smudge.sh",
		"include.path " + filepath.Join(home, "inc"),
		"credential.helper helper",
		"includeif.onbranch:x.path missing",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("paths:\n%q\nwant\n%q", got, want)
	}
}

func TestConfigReaderIsBounded(t *testing.T) {
	dir := t.TempDir()
	// Includes itself: read once.
	os.WriteFile(filepath.Join(dir, "a"), []byte("[include]\npath = a\npath = b\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b"), []byte("[include]\npath = a\n"), 0o644)
	r := configReader{}
	r.read(filepath.Join(dir, "a"), dir, 0)
	if len(r.seen) != 2 {
		t.Errorf("read %d files, want 2", len(r.seen))
	}
}

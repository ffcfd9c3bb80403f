package prompt

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var gitFuzz = flag.Int("gitfuzz", 25, "number of random repositories compared with git")

// gitRepo writes files (slash paths; a path ending in "/" is an empty
// folder) into a new git repository and returns its folder.
func gitRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	runGit(t, dir, nil, "init", "-q")
	writeFiles(t, dir, files)
	return dir
}

func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runGit runs git in dir, isolated from the user's and the system's
// configuration (a global excludes file would change the answers).
func runGit(t testing.TB, dir string, stdin []byte, args ...string) []byte {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.Output()
	if err != nil {
		// check-ignore exits 1 when nothing is ignored.
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || args[0] != "check-ignore" {
			t.Fatalf("git %v: %v", args, err)
		}
	}
	return out
}

// gitVisible lists the files git does not ignore (relative, sorted).
func gitVisible(t testing.TB, dir string) []string {
	out := runGit(t, dir, nil, "ls-files", "-z", "--others", "--exclude-standard")
	return splitZ(out)
}

// gitIgnored returns the subset of paths that git check-ignore ignores.
func gitIgnored(t testing.TB, dir string, paths []string) map[string]bool {
	in := strings.Join(paths, "\x00") + "\x00"
	out := runGit(t, dir, []byte(in), "check-ignore", "-z", "--stdin")
	m := map[string]bool{}
	for _, p := range splitZ(out) {
		m[p] = true
	}
	return m
}

func splitZ(b []byte) []string {
	var out []string
	for _, s := range strings.Split(string(b), "\x00") {
		if s != "" {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// visibleFiles lists the files the Ignore does not hide, walking the way
// the tree does (never entering an ignored folder).
func visibleFiles(t testing.TB, root string) []string {
	t.Helper()
	ig, err := NewIgnore(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(abs, rel string, d *Dir)
	walk = func(abs, rel string, d *Dir) {
		entries, err := os.ReadDir(abs)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if d.Ignored(e.Name(), e.IsDir()) {
				continue
			}
			r := e.Name()
			if rel != "" {
				r = rel + "/" + r
			}
			if e.IsDir() {
				sub, _ := os.ReadDir(filepath.Join(abs, e.Name()))
				walk(filepath.Join(abs, e.Name()), r, d.Sub(e.Name(), sub))
				continue
			}
			out = append(out, r)
		}
	}
	walk(root, "", ig.Root())
	slices.Sort(out)
	return out
}

// allPaths lists every file and folder below root except .git.
func allPaths(t testing.TB, root string) (paths []string, dirs map[string]bool) {
	dirs = map[string]bool{}
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		if e.Name() == ".git" {
			return filepath.SkipDir
		}
		r, _ := filepath.Rel(root, p)
		r = filepath.ToSlash(r)
		paths = append(paths, r)
		dirs[r] = e.IsDir()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths, dirs
}

// compareWithGit checks both the walk and Ignored against git, and
// returns the number of comparisons, of disagreements, and of paths git
// ignores (so a run can show it tested something).
func compareWithGit(t testing.TB, root string, report func(format string, args ...any)) (compared, wrong, nIgnored int) {
	want := gitVisible(t, root)
	got := visibleFiles(t, root)
	if !slices.Equal(got, want) {
		report("visible files differ:\n got %q\nwant %q", got, want)
		wrong++
	}
	compared++
	// The tree's own walk (everything opened) and its parallel counter
	// (everything collapsed) must both see git's files.
	for _, opts := range []TreeOptions{{Budget: 1 << 20, FolderLimit: 1 << 20}, {Budget: 1}} {
		tr, err := BuildTree(context.Background(), root, opts)
		if err != nil {
			t.Fatal(err)
		}
		compared++
		if tr.Files != len(want) {
			wrong++
			report("BuildTree(budget %d) counts %d files, git shows %d", opts.Budget, tr.Files, len(want))
		}
	}
	paths, dirs := allPaths(t, root)
	ignored := gitIgnored(t, root, paths)
	ig, err := NewIgnore(root)
	if err != nil {
		t.Fatal(err)
	}
	nIgnored = len(ignored)
	for _, p := range paths {
		compared++
		if g := ig.Ignored(p, dirs[p]); g != ignored[p] {
			wrong++
			report("Ignored(%q, dir=%v) = %v, git says %v", p, dirs[p], g, ignored[p])
		}
	}
	return compared, wrong, nIgnored
}

// gitCases are hand-written repositories exercising each gitignore rule.
var gitCases = []struct {
	name  string
	files map[string]string
}{
	{"nested negation", map[string]string{
		".gitignore":          "*.log\nbuild/\n!important.log\n",
		"a.log":               "",
		"important.log":       "",
		"src/debug.log":       "",
		"src/.gitignore":      "!debug.log\nimportant.log\n",
		"src/important.log":   "",
		"src/main.go":         "",
		"build/out.bin":       "",
		"src/build/x":         "",
		"docs/build":          "a file named build is not a folder",
		"docs/guide/intro.md": "",
	}},
	{"anchored", map[string]string{
		".gitignore":     "/top.txt\nsub/deep.txt\n/gen\n",
		"top.txt":        "",
		"a/top.txt":      "",
		"sub/deep.txt":   "",
		"a/sub/deep.txt": "",
		"gen/x":          "",
		"a/gen/x":        "",
	}},
	{"double star", map[string]string{
		".gitignore":    "**/cache\nlogs/**\na/**/z.txt\n**/tmp/*.o\nfoo**/bar\n",
		"cache/x":       "",
		"p/q/cache/x":   "",
		"logs/a/b":      "",
		"logs.txt":      "",
		"a/z.txt":       "",
		"a/b/c/z.txt":   "",
		"b/a/z.txt":     "",
		"tmp/x.o":       "",
		"k/tmp/x.o":     "",
		"k/tmp/q/x.o":   "",
		"foo/bar":       "",
		"foox/bar":      "",
		"foo/y/bar":     "",
		"keep/logs.txt": "",
	}},
	{"folder only and reinclude", map[string]string{
		".gitignore":       "out/\ndata/*\n!data/keep/\n!data/*.csv\nvendor\n!vendor/x\n",
		"out/a":            "",
		"x/out/b":          "",
		"y/out":            "a file",
		"data/a.bin":       "",
		"data/b.csv":       "",
		"data/keep/c.bin":  "",
		"data/drop/d.csv":  "",
		"vendor/x":         "cannot be re-included: vendor is ignored",
		"lib/vendor/y":     "",
		"lib/vendorish/z":  "",
		"lib/sub/.gitkeep": "",
	}},
	{"classes escapes and spaces", map[string]string{
		".gitignore":   "[abc].txt\n[!x]y.md\n[[:digit:]]*.dat\n\\#hash\n\\!bang\ntrail   \nesc\\ \n*.tmp\r\n",
		"a.txt":        "",
		"d.txt":        "",
		"zy.md":        "",
		"xy.md":        "",
		"1a.dat":       "",
		"b1.dat":       "",
		"#hash":        "",
		"!bang":        "",
		"trail":        "",
		"esc ":         "",
		"x.tmp":        "",
		"[abc].txt.no": "",
	}},
	{"info exclude", map[string]string{
		".git/info/exclude": "*.bin\n",
		".gitignore":        "!kept.bin\n",
		"drop.bin":          "",
		"kept.bin":          "",
	}},
}

func TestIgnoreAgreesWithGit(t *testing.T) {
	for _, tt := range gitCases {
		t.Run(tt.name, func(t *testing.T) {
			root := gitRepo(t, tt.files)
			compareWithGit(t, root, t.Errorf)
		})
	}
}

// TestIgnoreSubfolderOfRepo checks that a root below the repository's top
// still obeys the .gitignore files above it.
func TestIgnoreSubfolderOfRepo(t *testing.T) {
	root := gitRepo(t, map[string]string{
		".gitignore":       "*.o\n/app/gen/\n",
		"app/.gitignore":   "secret.txt\n",
		"app/main.c":       "",
		"app/main.o":       "",
		"app/secret.txt":   "",
		"app/gen/x.c":      "",
		"app/lib/gen/y.c":  "",
		"app/lib/util.c":   "",
		"app/lib/util.o":   "",
		"other/secret.txt": "",
	})
	got := visibleFiles(t, filepath.Join(root, "app"))
	want := []string{".gitignore", "lib/gen/y.c", "lib/util.c", "main.c"}
	if !slices.Equal(got, want) {
		t.Errorf("visible files of app/ = %q, want %q", got, want)
	}
}

// TestIgnoreRandomAgainstGit compares random ignore files over random
// trees with git (-gitfuzz=N sets how many).
func TestIgnoreRandomAgainstGit(t *testing.T) {
	t.Parallel() // its own folders and git processes
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	total, wrong, ignored := 0, 0, 0
	for seed := range *gitFuzz {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		files := randomRepo(r)
		root := gitRepo(t, files)
		c, w, n := compareWithGit(t, root, func(format string, args ...any) {
			t.Errorf("seed %d: "+format, append([]any{seed}, args...)...)
		})
		total += c
		wrong += w
		ignored += n
		if w > 0 {
			var b strings.Builder
			for _, k := range slices.Sorted(maps.Keys(files)) {
				if strings.HasSuffix(k, ".gitignore") {
					fmt.Fprintf(&b, "%s:\n%s", k, files[k])
				}
			}
			t.Logf("seed %d ignore files:\n%s", seed, b.String())
		}
	}
	t.Logf("%d of %d comparisons agree with git (%d paths ignored by git)", total-wrong, total, ignored)
	if ignored == 0 && *gitFuzz > 0 {
		t.Error("no random repository ignored anything: the comparison proves nothing")
	}
}

var (
	fuzzNames = []string{"a", "b", "ab", "ba", "c.txt", "d.log", "x.md", "build", "node_modules", "a b", "[a]", "#c", "!n", "e.txt"}
	fuzzGlobs = []string{"*", "?", "**", "a*", "*b", "*.txt", "[ab]", "[!a]*", "[a-c]*", "build", "node_modules", "a b", "\\[a]", "\\#c", "\\!n", "*.log", "x.md", "b?", "[[:alpha:]]*"}
)

// randomRepo makes a random tree with random ignore files in some folders.
func randomRepo(r *rand.Rand) map[string]string {
	files := map[string]string{}
	var dirs []string
	var grow func(dir string, depth int)
	grow = func(dir string, depth int) {
		dirs = append(dirs, dir)
		for range 1 + r.IntN(5) {
			name := fuzzNames[r.IntN(len(fuzzNames))]
			p := dir + name
			if depth < 4 && r.IntN(3) == 0 {
				grow(p+"/", depth+1)
				continue
			}
			if _, isDir := files[p+"/"]; !isDir {
				files[p] = ""
			}
		}
	}
	grow("", 0)
	// A name cannot be both a file and a folder.
	for p := range files {
		for _, d := range dirs {
			if d != "" && strings.TrimSuffix(d, "/") == p {
				delete(files, p)
			}
		}
	}
	for _, d := range dirs {
		if r.IntN(2) == 0 {
			continue
		}
		var b strings.Builder
		for range 1 + r.IntN(5) {
			b.WriteString(randomPattern(r))
			b.WriteByte('\n')
		}
		files[d+".gitignore"] = b.String()
	}
	return files
}

func randomPattern(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(4) == 0 {
		b.WriteByte('!')
	}
	if r.IntN(4) == 0 {
		b.WriteByte('/')
	}
	for i := range 1 + r.IntN(3) {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(fuzzGlobs[r.IntN(len(fuzzGlobs))])
	}
	if r.IntN(4) == 0 {
		b.WriteByte('/')
	}
	return b.String()
}

package prompt

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentcli/agent/internal/dirent"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update to accept):\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

// fixture writes testdata/tree/name.txtar into a new folder.
func fixture(t *testing.T, name string) string {
	t.Helper()
	return fixtureFrom(t, filepath.Join("testdata", "tree", name+".txtar"))
}

// fixtureFrom writes the files of a txtar archive into a new folder.
func fixtureFrom(t *testing.T, path string) string {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{}
	for _, f := range a.Files {
		files[f.Name] = string(f.Data)
	}
	writeFiles(t, dir, files)
	return dir
}

// generate creates n empty files in dir/sub.
func generate(t *testing.T, dir, sub string, n int) {
	t.Helper()
	p := filepath.Join(dir, sub)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := os.WriteFile(filepath.Join(p, fmt.Sprintf("f%05d.md", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestTreeGolden(t *testing.T) {
	t.Parallel() // its own folders and git processes
	tests := []struct {
		name    string // fixture and golden name
		fixture string // testdata/tree/<fixture>.txtar; none for a made-up tree
		opts    TreeOptions
		setup   func(t *testing.T, dir string, opts *TreeOptions)
	}{
		{name: "nested-gitignore", fixture: "nested-gitignore"},
		{name: "nested-gitignore-plain", fixture: "nested-gitignore", opts: TreeOptions{Style: Plain}},
		{name: "heavy", fixture: "heavy", setup: func(t *testing.T, dir string, _ *TreeOptions) {
			generate(t, dir, "dist", 2000)
			generate(t, dir, "pages", 500)
			generate(t, dir, "pages/nested", 20)
		}},
		{name: "count-limit", fixture: "heavy", opts: TreeOptions{CountLimit: 300}, setup: func(t *testing.T, dir string, _ *TreeOptions) {
			generate(t, dir, "pages", 500)
		}},
		{name: "budget", fixture: "budget", opts: TreeOptions{Budget: 12, FolderLimit: 4}},
		{name: "root-overflow", opts: TreeOptions{Budget: 5}, setup: func(t *testing.T, dir string, _ *TreeOptions) {
			generate(t, dir, "", 8)
			generate(t, dir, "zdir", 3)
		}},
		{name: "root-overflow-folders", opts: TreeOptions{Budget: 4}, setup: func(t *testing.T, dir string, _ *TreeOptions) {
			generate(t, dir, "", 2)
			for _, d := range []string{"a", "b", "c", "d", "e"} {
				generate(t, dir, d, 1)
			}
		}},
		{name: "empty-folders", setup: func(t *testing.T, dir string, _ *TreeOptions) {
			writeFiles(t, dir, map[string]string{"empty/": "", "full/x.md": "", "full/empty-too/": ""})
		}},
		{name: "single-file", fixture: "single-file"},
		{name: "unicode", fixture: "unicode", setup: func(t *testing.T, dir string, _ *TreeOptions) {
			// A newline in a name must not break the layout.
			if err := os.WriteFile(filepath.Join(dir, "two\nlines.txt"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "empty", setup: func(*testing.T, string, *TreeOptions) {}},
		{name: "symlink-loop", setup: func(t *testing.T, dir string, _ *TreeOptions) {
			writeFiles(t, dir, map[string]string{"a/file.txt": "", "b/c/deep.txt": ""})
			for link, target := range map[string]string{
				"a/loop":     "..",
				"self":       ".",
				"b/c/up":     "../../b",
				"dangling":   "nowhere",
				"a/to-b.txt": "../b/c/deep.txt",
			} {
				if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{name: "unreadable", setup: func(t *testing.T, dir string, opts *TreeOptions) {
			writeFiles(t, dir, map[string]string{"secret/key.pem": "", "open/a.txt": "", "README.md": ""})
			secret := filepath.Join(dir, "secret")
			if err := os.Chmod(secret, 0); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(secret, 0o755) })
			// Root ignores permissions (as in CI): make the read fail
			// the way it fails for everyone else.
			opts.scan = func(p string, buf []byte, fn func(string, dirent.Type)) error {
				if p == secret {
					return &fs.PathError{Op: "open", Path: p, Err: fs.ErrPermission}
				}
				return dirent.Scan(p, buf, fn)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.fixture != "" {
				dir = fixture(t, tt.fixture)
			}
			opts := tt.opts
			if tt.setup != nil {
				tt.setup(t, dir, &opts)
			}
			tr, err := BuildTree(t.Context(), dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			budget := cmpOr(opts.Budget, DefaultBudget)
			if tr.Lines > budget {
				t.Errorf("tree has %d lines, budget is %d", tr.Lines, budget)
			}
			if n := strings.Count(tr.Text, "\n"); n != tr.Lines {
				t.Errorf("Lines = %d, text has %d lines", tr.Lines, n)
			}
			got := tr.Text + fmt.Sprintf("-- %d lines, %d files, %d collapsed --\n", tr.Lines, tr.Files, tr.Collapsed)
			checkGolden(t, filepath.Join("tree", tt.name+".golden"), got)
		})
	}
}

func cmpOr(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// TestTreeDeterministic builds the same large tree several times: parallel
// counting must not change a byte.
func TestTreeDeterministic(t *testing.T) {
	t.Parallel() // its own folders and git processes
	dir := t.TempDir()
	for i := range 20 {
		generate(t, dir, fmt.Sprintf("d%02d/sub%d", i, i%3), 40+i)
	}
	var first string
	for i := range 5 {
		tr, err := BuildTree(t.Context(), dir, TreeOptions{Budget: 30, CountLimit: 500})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = tr.Text
			continue
		}
		if tr.Text != first {
			t.Fatalf("run %d differs:\n%s\nfirst:\n%s", i, tr.Text, first)
		}
	}
}

func TestTreeCancelled(t *testing.T) {
	dir := t.TempDir()
	generate(t, dir, "a", 10)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := BuildTree(ctx, dir, TreeOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("BuildTree(cancelled) error = %v, want context.Canceled", err)
	}
}

// TestTreeCancelledWhileCounting cancels from inside the walk, while
// collapsed folders are being counted: BuildTree must return the
// cancellation, and its workers must end.
func TestTreeCancelledWhileCounting(t *testing.T) {
	dir := t.TempDir()
	for i := range 30 {
		generate(t, dir, fmt.Sprintf("d%02d/x/y", i), 3)
	}
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var calls atomic.Int32
	opts := TreeOptions{Budget: 3, scan: func(p string, buf []byte, fn func(string, dirent.Type)) error {
		if calls.Add(1) == 10 {
			cancel()
		}
		return dirent.Scan(p, buf, fn)
	}}
	if _, err := BuildTree(ctx, dir, opts); !errors.Is(err, context.Canceled) {
		t.Fatalf("BuildTree cancelled mid-walk: error = %v, want context.Canceled", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines left running after BuildTree returned (%d before)", n, before)
	}
}

func TestTreeMissingRoot(t *testing.T) {
	if _, err := BuildTree(t.Context(), filepath.Join(t.TempDir(), "nope"), TreeOptions{}); err == nil {
		t.Error("BuildTree(missing folder) succeeded, want an error")
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 38102: "38,102", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestDisplayName(t *testing.T) {
	for in, want := range map[string]string{
		"plain.txt":   "plain.txt",
		"café 🎉.md":   "café 🎉.md",
		"two\nlines":  `"two\nlines"`,
		"tab\there":   `"tab\there"`,
		"bad\xffutf8": `"bad\xffutf8"`,
		"sep\u2028x":  `"sep\u2028x"`,
		"del\x7fchar": `"del\x7fchar"`,
	} {
		if got := displayName(in); got != want {
			t.Errorf("displayName(%q) = %s, want %s", in, got, want)
		}
	}
}

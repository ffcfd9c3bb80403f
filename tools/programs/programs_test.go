package programs

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tree makes the folders of one case: a trusted system folder, a project
// and a cache, under a temporary folder.
type tree struct{ sys, proj, cache string }

func newTree(t *testing.T) tree {
	t.Helper()
	base := t.TempDir()
	tr := tree{sys: filepath.Join(base, "usr", "bin"), proj: filepath.Join(base, "proj"), cache: filepath.Join(base, "cache")}
	for _, d := range []string{tr.sys, tr.proj, tr.cache} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

func program(t *testing.T, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func (tr tree) resolver(path string, fixed map[string]string) *Resolver {
	return New(Options{
		Path:      path,
		Untrusted: []Place{{tr.proj, "inside the project"}, {tr.cache, "in a cache sandboxed commands write"}},
		Fixed:     fixed,
	})
}

func TestFind(t *testing.T) {
	cases := []struct {
		name string
		prog string // the program looked up; bwrap when empty
		// setup plants files and returns PATH, the [programs] table and
		// the path Find must return ("" for an error holding wantErr).
		setup   func(t *testing.T, tr tree) (path string, fixed map[string]string, want string)
		wantErr string
		is      error
	}{
		{
			name: "the project's .venv/bin first on PATH is skipped",
			setup: func(t *testing.T, tr tree) (string, map[string]string, string) {
				program(t, filepath.Join(tr.proj, ".venv/bin/bwrap"))
				real := program(t, filepath.Join(tr.sys, "bwrap"))
				return filepath.Join(tr.proj, ".venv/bin") + ":" + tr.sys, nil, real
			},
		},
		{
			name: "only in the project: not found, naming the place",
			setup: func(t *testing.T, tr tree) (string, map[string]string, string) {
				program(t, filepath.Join(tr.proj, ".venv/bin/bwrap"))
				return filepath.Join(tr.proj, ".venv/bin") + ":" + tr.sys, nil, ""
			},
			wantErr: "bwrap found only in {proj}/.venv/bin, inside the project: not used; set [programs] bwrap in your config",
			is:      ErrUntrusted,
		},
		{
			name: "a cache folder on PATH is skipped",
			prog: "espeak-ng",
			setup: func(t *testing.T, tr tree) (string, map[string]string, string) {
				program(t, filepath.Join(tr.cache, "bin/espeak-ng"))
				return filepath.Join(tr.cache, "bin"), nil, ""
			},
			wantErr: "espeak-ng found only in {cache}/bin, in a cache sandboxed commands write",
			is:      ErrUntrusted,
		},
		{
			name: "relative entries are skipped",
			prog: "tmux",
			setup: func(t *testing.T, tr tree) (string, map[string]string, string) {
				program(t, filepath.Join(tr.proj, "tmux"))
				program(t, filepath.Join(tr.proj, "bin/tmux"))
				t.Chdir(tr.proj)
				return ".::bin", nil, ""
			},
			wantErr: "tmux found only in ., a relative PATH entry; ., a relative PATH entry; bin, a relative PATH entry",
			is:      ErrUntrusted,
		},
		{
			name: "a trusted entry's link into the project is skipped",
			prog: "git",
			setup: func(t *testing.T, tr tree) (string, map[string]string, string) {
				target := program(t, filepath.Join(tr.proj, "tools/git"))
				if err := os.Symlink(target, filepath.Join(tr.sys, "git")); err != nil {
					t.Fatal(err)
				}
				return tr.sys, nil, ""
			},
			wantErr: "git found only in {sys} (a link to {proj}/tools/git), inside the project",
			is:      ErrUntrusted,
		},
		{
			name: "an entry that is a link to a project folder is skipped",
			setup: func(t *testing.T, tr tree) (string, map[string]string, string) {
				program(t, filepath.Join(tr.proj, "bin/bwrap"))
				link := filepath.Join(filepath.Dir(tr.sys), "linkbin")
				if err := os.Symlink(filepath.Join(tr.proj, "bin"), link); err != nil {
					t.Fatal(err)
				}
				return link, nil, ""
			},
			wantErr: "(really {proj}/bin), inside the project",
			is:      ErrUntrusted,
		},
		{
			name: "a trusted link to a trusted file keeps its own name",
			prog: "vi",
			setup: func(t *testing.T, tr tree) (string, map[string]string, string) {
				program(t, filepath.Join(tr.sys, "busybox"))
				link := filepath.Join(tr.sys, "vi")
				if err := os.Symlink("busybox", link); err != nil {
					t.Fatal(err)
				}
				return tr.sys, nil, link
			},
		},
		{
			name: "[programs] wins over PATH",
			setup: func(t *testing.T, tr tree) (string, map[string]string, string) {
				program(t, filepath.Join(tr.sys, "bwrap"))
				mine := program(t, filepath.Join(filepath.Dir(tr.sys), "opt/bwrap"))
				return tr.sys, map[string]string{"bwrap": mine}, mine
			},
		},
		{
			name: "[programs] with a relative path is refused",
			setup: func(t *testing.T, tr tree) (string, map[string]string, string) {
				program(t, filepath.Join(tr.sys, "bwrap"))
				return tr.sys, map[string]string{"bwrap": "bin/bwrap"}, ""
			},
			wantErr: `[programs] bwrap = "bin/bwrap", not an absolute path: not used`,
			is:      ErrUntrusted,
		},
		{
			name: "[programs] naming a missing file is refused",
			setup: func(t *testing.T, tr tree) (string, map[string]string, string) {
				return tr.sys, map[string]string{"bwrap": "/nonexistent/bwrap"}, ""
			},
			wantErr: `[programs] bwrap = "/nonexistent/bwrap", no such file: not used`,
			is:      ErrUntrusted,
		},
		{
			name: "not executable is not found",
			prog: "tmux",
			setup: func(t *testing.T, tr tree) (string, map[string]string, string) {
				os.WriteFile(filepath.Join(tr.sys, "tmux"), nil, 0o644)
				return tr.sys, nil, ""
			},
			wantErr: "tmux not found on PATH",
			is:      exec.ErrNotFound,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t)
			path, fixed, want := tc.setup(t, tr)
			name := tc.prog
			if name == "" {
				name = "bwrap"
			}
			got, err := tr.resolver(path, fixed).Find(name)
			if tc.wantErr == "" {
				if err != nil || got != want {
					t.Fatalf("Find(%q) = %q, %v; want %q", name, got, err, want)
				}
				return
			}
			wantErr := strings.NewReplacer("{proj}", tr.proj, "{cache}", tr.cache, "{sys}", tr.sys).Replace(tc.wantErr)
			if err == nil || !strings.Contains(err.Error(), wantErr) {
				t.Fatalf("Find(%q) = %q, %v; want an error holding %q", name, got, err, wantErr)
			}
			if !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q is more than one line", err)
			}
		})
	}
}

// TestFindOnce: the answer is kept, so a program planted after the first
// lookup (or the real one removed) changes nothing.
func TestFindOnce(t *testing.T) {
	tr := newTree(t)
	real := program(t, filepath.Join(tr.sys, "bwrap"))
	early := filepath.Join(filepath.Dir(tr.sys), "early")
	r := tr.resolver(early+":"+tr.sys, nil)
	if got, err := r.Find("bwrap"); err != nil || got != real {
		t.Fatalf("Find = %q, %v; want %q", got, err, real)
	}
	program(t, filepath.Join(early, "bwrap"))
	if got, _ := r.Find("bwrap"); got != real {
		t.Errorf("after a plant earlier on PATH, Find = %q; want %q still", got, real)
	}
	// A new resolver would take it (the folder is trusted): the first
	// answer is what held.
	if got, _ := tr.resolver(early+":"+tr.sys, nil).Find("bwrap"); got == real {
		t.Errorf("a fresh resolver also found %q; the test shows nothing", got)
	}
}

// TestFindAbsolute: an absolute name is taken as it is when it can run,
// and a relative path is refused.
func TestFindAbsolute(t *testing.T) {
	tr := newTree(t)
	p := program(t, filepath.Join(tr.sys, "x"))
	r := tr.resolver("", nil)
	if got, err := r.Find(p); err != nil || got != p {
		t.Errorf("Find(%q) = %q, %v", p, got, err)
	}
	if _, err := r.Find("/nonexistent/x"); err == nil {
		t.Error("Find of a missing absolute path succeeded")
	}
	if _, err := r.Find("./x"); err == nil {
		t.Error("Find of a relative path succeeded")
	}
}

// BenchmarkFindCached is a lookup after the first: what every command
// pays for bubblewrap.
func BenchmarkFindCached(b *testing.B) {
	r := New(Options{Path: os.Getenv("PATH")})
	r.Find("sh")
	for b.Loop() {
		r.Find("sh")
	}
}

func TestPathLeavesOutUntrustedEntries(t *testing.T) {
	tr := newTree(t)
	venv := filepath.Join(tr.proj, ".venv", "bin")
	os.MkdirAll(venv, 0o755)
	link := filepath.Join(filepath.Dir(tr.sys), "tolink")
	if err := os.Symlink(tr.cache, link); err != nil {
		t.Fatal(err)
	}
	sep := string(filepath.ListSeparator)
	r := tr.resolver(strings.Join([]string{venv, tr.sys, "bin", "", link, tr.cache + "/x", "/bin"}, sep), nil)
	if got, want := r.Path(), tr.sys+sep+"/bin"; got != want {
		t.Errorf("Path() = %q, want %q", got, want)
	}
	env := r.Environ([]string{"HOME=/h", "PATH=" + venv + sep + tr.sys, "LANG=C"})
	if strings.Join(env, " ") != "HOME=/h LANG=C PATH="+tr.sys+sep+"/bin" {
		t.Errorf("Environ() = %q", env)
	}
}

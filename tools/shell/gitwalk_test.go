package shell

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agentcli/agent/internal/dirent"
)

func repoNames(s repoScan) string {
	var got []string
	for _, r := range s.repos {
		got = append(got, r.rel)
	}
	return strings.Join(got, " ")
}

func TestFindReposSeesEveryRepository(t *testing.T) {
	dir := project(t, map[string]string{
		"a/b/c/.git/config":    "",
		"d/.git":               "gitdir: x\n",
		"e/bare.git/HEAD":      "ref: refs/heads/main\n",
		"e/bare.git/objects/x": "",
		"e/bare.git/refs/x":    "",
		".agent/x/.git/config": "", // the agent's own folder is not walked
	})
	s := findRepos(dir, time.Minute)
	// Shallowest first, then by name.
	if s.why != "" || len(s.unread) != 0 || repoNames(s) != ".git d/.git e/bare.git a/b/c/.git" {
		t.Errorf("findRepos = %q (why %q, unread %q)", repoNames(s), s.why, s.unread)
	}
}

// TestFindReposStopsForTimeOnly: the walk has no bound on folders; when
// its time runs out it names the folders it did not read.
func TestFindReposStopsForTimeOnly(t *testing.T) {
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("top%d/sub/x.txt", i)] = ""
	}
	files["top7/sub/lib/.git/config"] = ""
	dir := project(t, files)
	start := time.Now()
	// A clock that reaches the deadline after 10 folders were read.
	var reads atomic.Int64
	clock := func() time.Time { return start.Add(time.Duration(reads.Add(1)) * time.Millisecond) }
	s := walkRepos(dir, dirent.Scan, start.Add(10*time.Millisecond), clock, 30*time.Second)
	if len(s.unread) == 0 || !strings.Contains(s.why, "took over 30s") {
		t.Fatalf("a walk out of time says %q, unread %q", s.why, s.unread)
	}
	if !slices.IsSorted(s.unread) {
		t.Errorf("unread not sorted: %q", s.unread)
	}
	text := unchecked(s.unread)
	for _, rel := range s.unread {
		top, _, _ := strings.Cut(rel, "/")
		if !strings.Contains(text, top+"/") && !strings.Contains(text, "more top-level folders") {
			t.Errorf("unchecked(%q) = %q, does not name %s", s.unread, text, top)
		}
	}
	// With time enough, every folder: 61 of them, beyond any count the
	// walk could have been given.
	if s := findRepos(dir, time.Minute); len(s.unread) != 0 || repoNames(s) != ".git top7/sub/lib/.git" {
		t.Errorf("findRepos = %q, unread %q", repoNames(s), s.unread)
	}
}

func TestUncheckedNamesTopFolders(t *testing.T) {
	for _, tc := range []struct {
		unread []string
		want   string
	}{
		{[]string{""}, "the whole project"},
		{[]string{"a/x", "a/y", "b"}, "a/ (2 unread folders and all below), b/ (1 unread folder and all below)"},
		{[]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}, "and 2 more top-level folders"},
	} {
		if got := unchecked(tc.unread); !strings.Contains(got, tc.want) {
			t.Errorf("unchecked(%q) = %q, want it to hold %q", tc.unread, got, tc.want)
		}
	}
}

// makeTree makes tops × mids × leaves folders under dir (and the tops
// and mids themselves), with two files in each mid folder.
func makeTree(tb testing.TB, dir string, tops, mids, leaves int) int {
	tb.Helper()
	n := 0
	for i := range tops {
		for j := range mids {
			mid := filepath.Join(dir, fmt.Sprintf("pkg%d", i), fmt.Sprintf("m%d", j))
			for k := range leaves {
				if err := os.MkdirAll(filepath.Join(mid, fmt.Sprintf("l%d", k)), 0o755); err != nil {
					tb.Fatal(err)
				}
			}
			if leaves == 0 {
				if err := os.MkdirAll(mid, 0o755); err != nil {
					tb.Fatal(err)
				}
			}
			os.WriteFile(filepath.Join(mid, "index.js"), nil, 0o644)
			os.WriteFile(filepath.Join(mid, "package.json"), nil, 0o644)
			n += leaves + 1
		}
		n++
	}
	return n
}

// BenchmarkFindRepos is the guard's walk, run twice per command, over a
// project of 1,000 folders with two nested repositories.
func BenchmarkFindRepos(b *testing.B) {
	dir := b.TempDir()
	makeTree(b, dir, 20, 50, 0)
	os.MkdirAll(filepath.Join(dir, "pkg1/m10/.git"), 0o755)
	os.MkdirAll(filepath.Join(dir, "vendor/x/.git"), 0o755)
	for b.Loop() {
		if s := findRepos(dir, DefaultGitScanTime); len(s.repos) != 2 || s.why != "" {
			b.Fatalf("found %v (%s)", s.repos, s.why)
		}
	}
}

// BenchmarkFindRepos200k is the walk over 200,400 folders (400 packages
// of 25 folders of 19 each, node_modules' shape) with a repository at
// the far end: the guard's target is under a second on two cores.
func BenchmarkFindRepos200k(b *testing.B) {
	dir := b.TempDir()
	n := makeTree(b, dir, 400, 25, 19)
	os.MkdirAll(filepath.Join(dir, "pkg399/m24/l18/.git"), 0o755)
	b.ResetTimer()
	for b.Loop() {
		if s := findRepos(dir, DefaultGitScanTime); len(s.repos) != 1 || s.why != "" {
			b.Fatalf("found %v (%s)", s.repos, s.why)
		}
	}
	b.ReportMetric(float64(n), "folders")
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "folders/s")
}

// TestPlantedRepositoryBeyondFiftyThousandFolders: a command makes
// 50,000 folders, more than any count bound the guard once had, and
// then a repository whose config runs a program at git status. It is
// found and moved away, and the person's git status there runs nothing.
func TestPlantedRepositoryBeyondFiftyThousandFolders(t *testing.T) {
	needBwrap(t)
	needGit(t)
	dir := project(t, nil)
	marker := filepath.Join(t.TempDir(), "PWNED-marker")
	tool := New(dir, Options{})
	res := runIn(t, tool, `seq 0 9999 | sed 's|.*|aaa/&/s/a/b/c|' | xargs mkdir -p && git init -q aaa/9999/s/lib && git -C aaa/9999/s/lib config core.fsmonitor 'touch `+marker+`'`)
	if meta(res, "exit_code") != "0" {
		t.Fatalf("the command failed: %s\n%s", res.Message, short(res.Content))
	}
	t.Logf("%s", res.Message)
	folders := 0
	filepath.WalkDir(filepath.Join(dir, "aaa"), func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			folders++
		}
		return nil
	})
	if folders < 50000 {
		t.Fatalf("the command made %d folders, want 50,000 or more", folders)
	}
	if _, err := os.Lstat(filepath.Join(dir, "aaa/9999/s/lib/.git")); err == nil {
		t.Fatalf("aaa/9999/s/lib/.git is still in the project")
	}
	if gitStatusRuns(t, filepath.Join(dir, "aaa/9999/s/lib"), marker) {
		t.Fatalf("git status ran the planted fsmonitor")
	}
	if len(res.Alerts) != 1 || !strings.Contains(res.Alerts[0], "aaa/9999/s/lib/.git") || !strings.Contains(res.Alerts[0], "moved to .agent/quarantine/") {
		t.Errorf("the person is not told: alerts %q", res.Alerts)
	}
	if res.Halt != "" {
		t.Errorf("the turn was stopped: %s", res.Halt)
	}
}

// TestGuardOutOfTimeStopsTheTurn: when the walk after a command runs out
// of time, the result stops the turn, and the person and the model are
// told which folders were not checked.
func TestGuardOutOfTimeStopsTheTurn(t *testing.T) {
	needBwrap(t)
	dir := project(t, map[string]string{"src/a.go": ""})
	res := runIn(t, New(dir, Options{GitScanTime: time.Nanosecond}), "mkdir -p x/y")
	if meta(res, "exit_code") != "0" {
		t.Fatalf("the command failed: %s\n%s", res.Message, res.Content)
	}
	for what, text := range map[string]string{"halt": res.Halt, "alerts": strings.Join(res.Alerts, "\n"), "content": res.Content} {
		if !strings.Contains(text, "not all of the project was checked") && !strings.Contains(text, "Not all of the project was checked") || !strings.Contains(text, "the whole project") {
			t.Errorf("%s does not say what was not checked: %q", what, text)
		}
	}
	if !strings.Contains(res.Content, "The turn was stopped") || !strings.Contains(res.Message, "the turn stops here") {
		t.Errorf("the model is not told the turn stops: %s\n%s", res.Message, res.Content)
	}
}

// TestUnreadableFolderIsNotPassedOver: a folder the walk cannot read is
// named, never skipped in silence.
func TestUnreadableFolderIsNotPassedOver(t *testing.T) {
	dir := project(t, map[string]string{"open/x.txt": "", "locked/lib/.git/config": ""})
	scan := func(p string, buf []byte, fn func(string, dirent.Type)) error {
		if filepath.Base(p) == "locked" {
			return &os.PathError{Op: "open", Path: p, Err: syscall.EACCES}
		}
		return dirent.Scan(p, buf, fn)
	}
	s := walkRepos(dir, scan, time.Now().Add(time.Minute), time.Now, time.Minute)
	if len(s.unreadable) != 1 || slices.Collect(maps.Values(s.unreadable))[0] != "locked" || s.why == "" {
		t.Fatalf("unreadable %v, why %q", s.unreadable, s.why)
	}
	why := gitReport{unreadable: []string{"locked"}}.incomplete()
	if !strings.Contains(why, "cannot be read: locked") {
		t.Errorf("incomplete() = %q", why)
	}
}

// TestFolderMadeUnreadableStopsTheTurn: a command that hides a folder
// from the guard (chmod 000) stops the turn; one the person had made
// unreadable before does not.
func TestFolderMadeUnreadableStopsTheTurn(t *testing.T) {
	needBwrap(t)
	if os.Geteuid() == 0 {
		t.Skip("root reads folders of mode 000; TestUnreadableFolderIsNotPassedOver covers the walk")
	}
	dir := project(t, map[string]string{"mine/x.txt": ""})
	os.Chmod(filepath.Join(dir, "mine"), 0)
	t.Cleanup(func() {
		os.Chmod(filepath.Join(dir, "mine"), 0o755)
		os.Chmod(filepath.Join(dir, "x"), 0o755)
	})
	tool := New(dir, Options{})
	if res := runIn(t, tool, "true"); res.Halt != "" {
		t.Errorf("the person's own unreadable folder stops the turn: %s", res.Halt)
	}
	res := runIn(t, tool, "mkdir -p x/lib && chmod 000 x")
	if !strings.Contains(res.Halt, "cannot be read: x") {
		t.Errorf("halt %q", res.Halt)
	}
}

package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hog doubles a string until it holds 100 MB: far over a 64 MiB limit.
const hog = `awk 'BEGIN { s = "x"; while (length(s) < 100000000) s = s s; print "allocated", length(s) }'`

// TestMemoryLimit runs a command that allocates beyond a small limit: it
// is stopped, and where a memory cgroup holds the limit the result says
// it was killed for memory. The same command runs to its end without
// the limit, so the test can fail.
func TestMemoryLimit(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	free := runIn(t, New(dir, Options{}), hog)
	if !strings.Contains(free.Content, "allocated 134217728") {
		t.Fatalf("without a small limit the allocation failed: %s %q", free.Message, short(free.Content))
	}

	tool := New(dir, Options{MemoryLimit: 64 << 20})
	tool.setup()
	t.Logf("memory cgroup: %q (v2 %v)", tool.limit.memBase, tool.limit.memV2)
	res := runIn(t, tool, hog)
	if strings.Contains(res.Content, "allocated") || meta(res, "exit_code") == "0" {
		t.Fatalf("the command went over 64 MiB and ended well: %s %q", res.Message, short(res.Content))
	}
	if tool.limit.memBase != "" && !strings.Contains(res.Message, "killed for memory: the command went over its memory limit of 64MiB") {
		t.Errorf("message %q does not say the memory limit killed it", res.Message)
	}
	if strings.Count(res.Message, "\n") > 0 {
		t.Errorf("message %q is more than one line", res.Message)
	}
	// A command within the limit runs as usual.
	if ok := runIn(t, tool, "echo fine"); meta(ok, "exit_code") != "0" || strings.Contains(ok.Message, "memory") {
		t.Errorf("a small command under the limit: %s %q", ok.Message, ok.Content)
	}
}

// TestMemoryLimitByRlimit is the fallback where no memory cgroup can be
// made: RLIMIT_DATA, set by the launcher, stops the same allocation.
func TestMemoryLimitByRlimit(t *testing.T) {
	needBwrap(t)
	tool := New(project(t, nil), Options{MemoryLimit: 64 << 20})
	tool.setup()
	tool.limit.memBase = ""
	res := runIn(t, tool, hog+"; ulimit -d")
	if strings.Contains(res.Content, "allocated") {
		t.Fatalf("the allocation succeeded under RLIMIT_DATA: %s %q", res.Message, short(res.Content))
	}
	if !strings.Contains(res.Content, "65536") {
		t.Errorf("ulimit -d inside the sandbox is not 65536 KiB: %q", short(res.Content))
	}
}

// TestTmpIsBounded fills /tmp and /dev/shm past a small size: the
// writes fail for space, and a write within the size works.
func TestTmpIsBounded(t *testing.T) {
	needBwrap(t)
	tool := New(project(t, nil), Options{TmpSize: 8 << 20})
	tool.setup()
	if !SizeBounds(tool.bwrap) {
		if os.Getenv("CI") != "" {
			t.Fatal("bubblewrap lacks --size (0.5 or later needed)")
		}
		t.Skip("this bubblewrap has no --size")
	}
	for _, dir := range []string{"/tmp", "/dev/shm"} {
		res := runIn(t, tool, "head -c 4000000 /dev/zero > "+dir+"/small && echo small-ok; head -c 20000000 /dev/zero > "+dir+"/big && echo big-ok; df -k "+dir)
		if !strings.Contains(res.Content, "small-ok") {
			t.Errorf("%s: a 4 MB file did not fit in 8 MiB: %q", dir, short(res.Content))
		}
		if strings.Contains(res.Content, "big-ok") || !strings.Contains(res.Content, "No space left") {
			t.Errorf("%s: a 20 MB file fit in 8 MiB: %q", dir, short(res.Content))
		}
	}
}

// TestPlantedBwrapNeverRuns is the escape of issue 20: with a project
// folder on PATH (an activated .venv/bin), one command plants a "bwrap"
// there that would record it ran and then run the real one. Neither the
// tool that ran the plant nor a new one ever starts it, and commands
// still run sandboxed.
func TestPlantedBwrapNeverRuns(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	marker := filepath.Join(t.TempDir(), "planted-bwrap-ran")
	bwrap := mustLook(t, "bwrap")
	t.Setenv("PATH", filepath.Join(dir, ".venv", "bin")+":"+os.Getenv("PATH"))
	tool := New(dir, Options{})
	plant := "mkdir -p .venv/bin && printf '#!/bin/sh\\ntouch " + marker + "\\nexec " + bwrap + " \"$@\"\\n' > .venv/bin/bwrap && chmod +x .venv/bin/bwrap && echo planted"
	if res := runIn(t, tool, plant); !strings.Contains(res.Content, "planted") {
		t.Fatalf("the plant failed: %s %q", res.Message, res.Content)
	}
	for _, tl := range []*Tool{tool, New(dir, Options{})} {
		res := runIn(t, tl, "cat /proc/1/comm; touch /usr/agent-escape-probe 2>/dev/null || echo refused")
		if !strings.Contains(res.Content, "bwrap") || !strings.Contains(res.Content, "refused") {
			t.Errorf("the command did not run sandboxed: %s %q", res.Message, res.Content)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatal("the planted bwrap ran")
		}
	}
	// Only the plant on PATH: no command runs, and the message names it.
	t.Setenv("PATH", filepath.Join(dir, ".venv", "bin"))
	only := New(dir, Options{})
	res := runIn(t, only, "true")
	if want := "bwrap found only in " + filepath.Join(dir, ".venv", "bin") + ", inside the project: not used; set [programs] bwrap in your config"; !strings.Contains(res.Message, want) {
		t.Errorf("message %q; want it to hold %q", res.Message, want)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the planted bwrap ran")
	}
}

func mustLook(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLaunch(t *testing.T) {
	argv := []string{"bwrap", "--", "/bin/sh", "-c", "true"}
	c := &cgroup{dirs: []string{"/cg/pids/a", "/cg/memory/a"}}
	for _, tc := range []struct {
		c    *cgroup
		kib  int64
		want string
	}{
		{nil, 0, "bwrap -- /bin/sh -c true"},
		{nil, 64, `/bin/sh -c { ulimit -d 64 2>/dev/null; exec "$@"; } sh bwrap -- /bin/sh -c true`},
		{c, 0, `/bin/sh -c echo $$ > "$1" && echo $$ > "$2" && shift 2 && exec "$@" sh /cg/pids/a/cgroup.procs /cg/memory/a/cgroup.procs bwrap -- /bin/sh -c true`},
		{c, 64, `/bin/sh -c echo $$ > "$1" && echo $$ > "$2" && shift 2 && { ulimit -d 64 2>/dev/null; exec "$@"; } sh /cg/pids/a/cgroup.procs /cg/memory/a/cgroup.procs bwrap -- /bin/sh -c true`},
	} {
		if got := strings.Join(launch(argv, tc.c, tc.kib), " "); got != tc.want {
			t.Errorf("launch(%v, %d) =\n%s\nwant\n%s", tc.c, tc.kib, got, tc.want)
		}
	}
}

package shell

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// Process limits. RLIMIT_NPROC does not bind root (the kernel exempts
// uid 0 whatever the namespace), so as root the limit is a pids cgroup:
// a folder made per command under the pids controller (cgroup v1's pids
// hierarchy, or v2 where pids is enabled for our subtree), with pids.max
// set, that the command's launcher joins before it starts bubblewrap, so
// every descendant is counted and none can leave (the sandbox sees
// /sys/fs/cgroup read-only). As another user, where cgroups are rarely
// writable, RLIMIT_NPROC is set inside the sandbox's user namespace by
// prlimit, where it counts only the sandbox's own processes.
const (
	limitNone   = ""
	limitCgroup = "pids cgroup"
	limitRlimit = "RLIMIT_NPROC"
)

// procLimit is how this process bounds a command's processes.
type procLimit struct {
	kind    string
	base    string // cgroup folder under which per-command ones are made
	prlimit string // the prlimit program
}

var cgroupSeq atomic.Int64

func findProcLimit() procLimit {
	if base := pidsCgroup(); base != "" {
		return procLimit{kind: limitCgroup, base: base}
	}
	if os.Geteuid() != 0 {
		if p, err := exec.LookPath("prlimit"); err == nil {
			return procLimit{kind: limitRlimit, prlimit: p}
		}
	}
	return procLimit{}
}

// pidsCgroup returns the cgroup folder of this process under a pids
// controller, if a child folder can be made there; "" otherwise.
func pidsCgroup() string {
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	var v1, v2 string
	sc := bufio.NewScanner(bytes.NewReader(mounts))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		i := indexOf(f, "-")
		if i < 0 || len(f) < i+4 || len(f) < 5 {
			continue
		}
		switch fstype, opts := f[i+1], f[i+3]; {
		case fstype == "cgroup" && hasOpt(opts, "pids"):
			v1 = f[4]
		case fstype == "cgroup2" && v2 == "":
			v2 = f[4]
		}
	}
	var dir string
	for _, line := range strings.Split(string(own), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case v1 != "" && hasOpt(parts[1], "pids"):
			dir = filepath.Join(v1, parts[2])
		case v1 == "" && v2 != "" && parts[0] == "0":
			d := filepath.Join(v2, parts[2])
			if ctl, err := os.ReadFile(filepath.Join(d, "cgroup.subtree_control")); err == nil && hasOpt(strings.ReplaceAll(strings.TrimSpace(string(ctl)), " ", ","), "pids") {
				dir = d
			}
		}
	}
	if dir == "" {
		return ""
	}
	probe := filepath.Join(dir, fmt.Sprintf("agent-shell-probe-%d", os.Getpid()))
	if err := os.Mkdir(probe, 0o755); err != nil {
		return ""
	}
	_, err = os.Stat(filepath.Join(probe, "pids.max"))
	os.Remove(probe)
	if err != nil {
		return ""
	}
	return dir
}

func indexOf(f []string, s string) int {
	for i, x := range f {
		if x == s {
			return i
		}
	}
	return -1
}

func hasOpt(opts, name string) bool {
	for _, o := range strings.Split(opts, ",") {
		if o == name {
			return true
		}
	}
	return false
}

// cgroup is the pids cgroup of one command.
type cgroup struct{ dir string }

// newCgroup makes a cgroup allowing n processes.
func (l procLimit) newCgroup(n int) (*cgroup, error) {
	dir := filepath.Join(l.base, fmt.Sprintf("agent-shell-%d-%d", os.Getpid(), cgroupSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("make pids cgroup: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(n)), 0o644); err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("set pids.max: %w", err)
	}
	return &cgroup{dir: dir}, nil
}

// wrap returns argv started from inside the cgroup: a shell writes its
// own pid into cgroup.procs, then becomes argv, so nothing forks before
// the limit holds.
func (c *cgroup) wrap(argv []string) []string {
	return append([]string{"/bin/sh", "-c", `echo $$ > "$0" && exec "$@"`, filepath.Join(c.dir, "cgroup.procs")}, argv...)
}

// hitLimit reports whether a fork was refused for the limit.
func (c *cgroup) hitLimit() bool {
	data, err := os.ReadFile(filepath.Join(c.dir, "pids.events"))
	if err != nil {
		return false
	}
	f := strings.Fields(string(data))
	return len(f) >= 2 && f[0] == "max" && f[1] != "0"
}

// kill sends sig to every process left in the cgroup. Without the
// sandbox this is what ends a command's daemons, which left its session.
func (c *cgroup) kill(sig syscall.Signal) {
	data, _ := os.ReadFile(filepath.Join(c.dir, "cgroup.procs"))
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
			syscall.Kill(pid, sig)
		}
	}
}

// remove deletes the cgroup once its last process is gone (the kernel
// refuses while a zombie remains, so it tries for a moment).
func (c *cgroup) remove() {
	for wait := time.Millisecond; wait < time.Second; wait *= 2 {
		if err := os.Remove(c.dir); err == nil || os.IsNotExist(err) {
			return
		}
		time.Sleep(wait)
	}
}

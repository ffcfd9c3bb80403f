package shell

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
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
//
// Memory is bounded the same way: a memory cgroup per command where one
// can be made (memory.max, or v1's memory.limit_in_bytes), which counts
// every process of the command together and says when one was killed
// for it; otherwise RLIMIT_DATA, set by the launcher, which bounds each
// process's data. Not RLIMIT_AS: the race detector and JVMs reserve far
// more address space than they use, and fail under it.
const (
	limitNone   = ""
	limitCgroup = "pids cgroup"
	limitRlimit = "RLIMIT_NPROC"
)

// procLimit is how this process bounds a command's processes and memory.
type procLimit struct {
	kind    string
	base    string // cgroup folder under which per-command pids ones are made
	prlimit string // the prlimit program
	// memBase is the cgroup folder under which per-command memory ones
	// are made ("" for none: RLIMIT_DATA then); memV2 says it is cgroup
	// v2's (memory.max) rather than v1's (memory.limit_in_bytes).
	memBase string
	memV2   bool
}

var cgroupSeq atomic.Int64

// findProcLimit finds the cgroups this process can make, and prlimit
// (through find) where RLIMIT_NPROC must do instead.
func findProcLimit(find func(string) (string, error)) procLimit {
	var l procLimit
	ctl := findControllers()
	l.memBase, l.memV2 = ctl.dir("memory")
	if base, _ := ctl.dir("pids"); base != "" {
		l.kind, l.base = limitCgroup, base
		return l
	}
	if os.Geteuid() != 0 {
		if p, err := find("prlimit"); err == nil {
			l.kind, l.prlimit = limitRlimit, p
		}
	}
	return l
}

// controllers is where this process sits in each cgroup hierarchy.
type controllers struct {
	v1 map[string]string // controller -> this process's folder in its hierarchy
	v2 string            // this process's cgroup v2 folder, "" without one
}

func findControllers() controllers {
	c := controllers{v1: map[string]string{}}
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return c
	}
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return c
	}
	v1 := map[string]string{} // controller -> mount point
	var v2 string
	sc := bufio.NewScanner(bytes.NewReader(mounts))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		i := indexOf(f, "-")
		if i < 0 || len(f) < i+4 || len(f) < 5 {
			continue
		}
		switch fstype, opts := f[i+1], f[i+3]; {
		case fstype == "cgroup":
			for _, name := range []string{"pids", "memory"} {
				if hasOpt(opts, name) {
					v1[name] = f[4]
				}
			}
		case fstype == "cgroup2" && v2 == "":
			v2 = f[4]
		}
	}
	for _, line := range strings.Split(string(own), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		for name, mnt := range v1 {
			if hasOpt(parts[1], name) {
				c.v1[name] = filepath.Join(mnt, parts[2])
			}
		}
		if v2 != "" && parts[0] == "0" {
			c.v2 = filepath.Join(v2, parts[2])
		}
	}
	return c
}

// dir returns the folder under which this process can make a cgroup
// with the controller name (v1's hierarchy first, else v2 where the
// controller is enabled for our subtree), and whether it is v2; "" when
// there is none, or a child folder cannot be made there.
func (c controllers) dir(name string) (string, bool) {
	file := map[string]string{"pids": "pids.max", "memory": "memory.limit_in_bytes"}[name]
	dir, v2 := c.v1[name], false
	if dir == "" && c.v2 != "" {
		ctl, err := os.ReadFile(filepath.Join(c.v2, "cgroup.subtree_control"))
		if err != nil || !hasOpt(strings.ReplaceAll(strings.TrimSpace(string(ctl)), " ", ","), name) {
			return "", false
		}
		dir, v2 = c.v2, true
		if name == "memory" {
			file = "memory.max"
		}
	}
	if dir == "" {
		return "", false
	}
	probe := filepath.Join(dir, fmt.Sprintf("agent-shell-probe-%d", os.Getpid()))
	if err := os.Mkdir(probe, 0o755); err != nil {
		return "", false
	}
	_, err := os.Stat(filepath.Join(probe, file))
	os.Remove(probe)
	if err != nil {
		return "", false
	}
	return dir, v2
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

// cgroup is the cgroups of one command: one folder under cgroup v2, or
// one per v1 hierarchy (pids, memory).
type cgroup struct {
	dirs  []string
	pids  string // the folder holding pids.max, "" for none
	mem   string // the folder holding the memory limit, "" for none
	memV2 bool
}

// newCgroup makes the cgroups of one command allowing procs processes
// (when there is a pids cgroup) and mem bytes of memory (when there is a
// memory one); nil when there is neither.
func (l procLimit) newCgroup(procs int, mem int64) (*cgroup, error) {
	c := &cgroup{memV2: l.memV2}
	name := fmt.Sprintf("agent-shell-%d-%d", os.Getpid(), cgroupSeq.Add(1))
	mkdir := func(base string) (string, error) {
		dir := filepath.Join(base, name)
		if slices.Contains(c.dirs, dir) { // cgroup v2: one folder for both
			return dir, nil
		}
		if err := os.Mkdir(dir, 0o755); err != nil {
			return "", err
		}
		c.dirs = append(c.dirs, dir)
		return dir, nil
	}
	var err error
	if l.kind == limitCgroup {
		if c.pids, err = mkdir(l.base); err != nil {
			return nil, fmt.Errorf("make pids cgroup: %w", err)
		}
		if err := os.WriteFile(filepath.Join(c.pids, "pids.max"), []byte(strconv.Itoa(procs)), 0o644); err != nil {
			c.remove()
			return nil, fmt.Errorf("set pids.max: %w", err)
		}
	}
	if l.memBase != "" && mem > 0 {
		if c.mem, err = mkdir(l.memBase); err == nil {
			err = c.setMemory(mem)
		}
		if err != nil {
			c.mem = "" // RLIMIT_DATA then: the launcher sets it
		}
	}
	if len(c.dirs) == 0 {
		return nil, nil
	}
	return c, nil
}

// setMemory sets the memory limit, swap included where the kernel
// accounts for it (so that a command cannot page its way past it).
func (c *cgroup) setMemory(n int64) error {
	v := []byte(strconv.FormatInt(n, 10))
	if c.memV2 {
		if err := os.WriteFile(filepath.Join(c.mem, "memory.max"), v, 0o644); err != nil {
			return fmt.Errorf("set memory.max: %w", err)
		}
		os.WriteFile(filepath.Join(c.mem, "memory.swap.max"), []byte("0"), 0o644)
		return nil
	}
	if err := os.WriteFile(filepath.Join(c.mem, "memory.limit_in_bytes"), v, 0o644); err != nil {
		return fmt.Errorf("set memory.limit_in_bytes: %w", err)
	}
	os.WriteFile(filepath.Join(c.mem, "memory.memsw.limit_in_bytes"), v, 0o644) // absent without swap accounting
	return nil
}

// launch returns argv started through a shell that first joins each
// cgroup of c (nil for none) by writing its own pid into cgroup.procs,
// and sets RLIMIT_DATA to dataKiB when it is positive, then becomes
// argv: nothing forks before the limits hold. A cgroup that cannot be
// joined stops the command; a data limit that cannot be set (a lower
// hard limit is already there, and stays) does not.
func launch(argv []string, c *cgroup, dataKiB int64) []string {
	var steps, files []string
	if c != nil {
		for i, d := range c.dirs {
			steps = append(steps, fmt.Sprintf(`echo $$ > "$%d"`, i+1))
			files = append(files, filepath.Join(d, "cgroup.procs"))
		}
		steps = append(steps, "shift "+strconv.Itoa(len(files)))
	}
	last := `exec "$@"`
	if dataKiB > 0 {
		last = fmt.Sprintf(`{ ulimit -d %d 2>/dev/null; exec "$@"; }`, dataKiB)
	}
	if len(steps) == 0 && dataKiB <= 0 {
		return argv
	}
	script := strings.Join(append(steps, last), " && ")
	out := append([]string{"/bin/sh", "-c", script, "sh"}, files...)
	return append(out, argv...)
}

// hitLimit reports whether a fork was refused for the limit.
func (c *cgroup) hitLimit() bool {
	return c.pids != "" && eventCount(filepath.Join(c.pids, "pids.events"), "max") > 0
}

// oomKilled reports whether the kernel killed a process of the command
// for going over the memory limit.
func (c *cgroup) oomKilled() bool {
	switch {
	case c.mem == "":
		return false
	case c.memV2:
		return eventCount(filepath.Join(c.mem, "memory.events"), "oom_kill") > 0
	}
	return eventCount(filepath.Join(c.mem, "memory.oom_control"), "oom_kill") > 0
}

// eventCount reads the count of name from a file of "name count" lines.
func eventCount(file, name string) int64 {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == name {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	return 0
}

// kill sends sig to every process left in the cgroup. Without the
// sandbox this is what ends a command's daemons, which left its session.
func (c *cgroup) kill(sig syscall.Signal) {
	data, _ := os.ReadFile(filepath.Join(c.dirs[0], "cgroup.procs"))
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
			syscall.Kill(pid, sig)
		}
	}
}

// remove deletes the cgroups once their last process is gone (the
// kernel refuses while a zombie remains, so it tries for a moment).
func (c *cgroup) remove() {
	for _, dir := range c.dirs {
		for wait := time.Millisecond; wait < time.Second; wait *= 2 {
			if err := os.Remove(dir); err == nil || os.IsNotExist(err) {
				break
			}
			time.Sleep(wait)
		}
	}
}

// DefaultMemoryLimit is a command's memory limit when none is set: half
// of the machine's memory, and at least minDefaultMemory, so that a
// command blowing up cannot take the agent (or the machine) with it,
// while go test -race of a large module still fits.
func DefaultMemoryLimit() int64 { return defaultMemory() }

const minDefaultMemory = 4 << 30

var defaultMemory = sync.OnceValue(func() int64 {
	return max(memTotal()/2, minDefaultMemory)
})

// memTotal is MemTotal of /proc/meminfo in bytes, 0 when unknown.
func memTotal() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n << 10
			}
		}
	}
	return 0
}

// sizeText writes a byte count in the largest binary unit that divides
// it, as the config's sizes are written ("4GiB").
func sizeText(n int64) string {
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n > 0 && n%u.n == 0 {
			return strconv.FormatInt(n/u.n, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

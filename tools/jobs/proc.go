package jobs

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Process identifies a process across time: its pid and its start time
// (clock ticks after boot, from /proc), so that a pid the kernel gave to
// another process since is not taken for it.
type Process struct {
	PID   int
	Start uint64
}

// Self is this process.
func Self() Process {
	p := Process{PID: os.Getpid()}
	st, _ := readStat(p.PID)
	p.Start = st.start
	return p
}

// ProcessOf is the running process pid, with its start time.
func ProcessOf(pid int) Process {
	p := Process{PID: pid}
	st, _ := readStat(pid)
	p.Start = st.start
	return p
}

// Alive reports whether the process still runs: same pid, same start
// time, not a zombie. Without /proc (Start unknown) the pid alone decides.
func (p Process) Alive() bool {
	if p.PID <= 0 {
		return false
	}
	st, ok := readStat(p.PID)
	if !ok {
		if p.Start != 0 {
			return false
		}
		return syscall.Kill(p.PID, 0) == nil
	}
	return !st.zombie && (p.Start == 0 || st.start == p.Start)
}

// Parent is the pid of the process's parent, 0 when it is gone.
func (p Process) Parent() int {
	st, _ := readStat(p.PID)
	return st.ppid
}

// stat is what /proc/pid/stat says of a process.
type stat struct {
	ppid, pgrp int
	start      uint64 // clock ticks after boot
	zombie     bool
}

// readStat reads /proc/pid/stat. The command name, which may hold spaces
// and parentheses, ends at the last ')'; the fields after it start with
// the state (field 3); ppid is 4, pgrp 5, starttime 22.
func readStat(pid int) (stat, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return stat{}, false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return stat{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return stat{}, false
	}
	var st stat
	st.ppid, _ = strconv.Atoi(f[1])
	st.pgrp, _ = strconv.Atoi(f[2])
	st.start, err = strconv.ParseUint(f[19], 10, 64)
	st.zombie = f[0] == "Z" || f[0] == "X"
	return st, err == nil
}

// endLeftovers kills what is left of job j's processes once its agent
// is gone. Most died with it, but not all: bubblewrap's die-with-parent
// misses a sandbox whose launcher died in its first milliseconds, and
// without the sandbox only the command's first process dies with the
// agent. What is left keeps the job's process group (whose id is the
// job's process's pid: it started a session of its own) and the job's
// mark; only processes with both are killed.
func endLeftovers(j Job) {
	if j.PID <= 0 {
		return
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok && st.pgrp == j.PID && !st.zombie && j.Marks(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

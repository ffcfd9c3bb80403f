package shell

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// run is one started command.
type run struct {
	cmd  *exec.Cmd
	out  *os.File // read end of the output pipe
	done chan struct{}
	err  error // from Wait, once done is closed
	pid  int
	// sandboxed: pid is bubblewrap, and its child the namespace's init.
	sandboxed bool
}

// start runs cmd with stdin empty and stdout and stderr on one pipe, in
// a new session (no controlling terminal, so no keystrokes can be pushed
// into the user's terminal, and one process group to signal).
func start(cmd *exec.Cmd, sandboxed bool) (*run, error) {
	defer closeExtra(cmd)
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = w, w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	w.Close()
	p := &run{cmd: cmd, out: r, done: make(chan struct{}), pid: cmd.Process.Pid, sandboxed: sandboxed}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// stop ends every process of the command: SIGTERM to each (bubblewrap
// itself aside, whose death would SIGKILL the rest at once), then, if any
// is still there after grace, SIGKILL to bubblewrap, which takes the
// whole PID namespace with it, and to the process group. Processes that
// appear during the grace period (a command stopped right after its
// start, before the sandbox ran it) get their SIGTERM too, each once.
func (p *run) stop(grace time.Duration) {
	t := terminator{pid: p.pid, sandboxed: p.sandboxed}
	deadline := time.After(grace)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		t.term()
		select {
		case <-p.done:
			return
		case <-deadline:
			killAll(p.pid)
			p.cmd.Process.Kill()
			<-p.done
			return
		case <-tick.C:
		}
	}
}

// terminator sends SIGTERM to the processes of the command whose
// launcher is pid, each once: in the sandbox, those below its init; else
// the process group too.
type terminator struct {
	pid       int
	sandboxed bool
	sent      map[int]bool
}

func (t *terminator) term() {
	if t.sent == nil {
		t.sent = map[int]bool{}
		if !t.sandboxed {
			syscall.Kill(-t.pid, syscall.SIGTERM)
		}
	}
	for _, c := range descendants(t.pid, t.sandboxed) {
		if !t.sent[c] {
			t.sent[c] = true
			syscall.Kill(c, syscall.SIGTERM)
		}
	}
}

// killAll sends SIGKILL to every process below pid and to its group.
func killAll(pid int) {
	for _, c := range descendants(pid, false) {
		syscall.Kill(c, syscall.SIGKILL)
	}
	syscall.Kill(-pid, syscall.SIGKILL)
}

// exitCode returns the command's exit status, or -1 with the signal that
// ended it.
func (p *run) exitCode() (int, string) {
	st := p.cmd.ProcessState
	if st == nil {
		return -1, ""
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, ws.Signal().String()
	}
	return st.ExitCode(), ""
}

// descendants returns the processes below pid, found through /proc by
// parent. Inside the sandbox orphans are adopted by its init, itself a
// child of pid, so a command that daemonises is still found. With
// skipSandbox, the launcher chain of bubblewrap (pid and its direct
// child, the namespace's init, which ignores SIGTERM) is left out.
func descendants(pid int, skipInit bool) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp := parentOf(n); pp > 0 {
			children[pp] = append(children[pp], n)
		}
	}
	var out []int
	var walk func(p, depth int)
	walk = func(p, depth int) {
		for _, c := range children[p] {
			if !skipInit || depth > 0 {
				out = append(out, c)
			}
			walk(c, depth+1)
		}
	}
	walk(pid, 0)
	return out
}

// parentOf reads the parent pid from /proc/pid/stat (after the command
// name, which may hold spaces and parentheses).
func parentOf(pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0
	}
	pp, _ := strconv.Atoi(f[1])
	return pp
}

// pump copies the output to c and to stream until every writer is gone.
// After the command has exited it waits at most linger more (a process
// that escaped the group, possible only without the sandbox, may hold the
// pipe open forever).
func (p *run) pump(ctx context.Context, c *capture, stream func(context.Context, []byte), linger time.Duration) {
	read := make(chan struct{})
	go func() {
		defer close(read)
		buf := make([]byte, 32<<10)
		for {
			n, err := p.out.Read(buf)
			if n > 0 {
				c.Write(buf[:n])
				if stream != nil { // the chunk is valid during the call only
					stream(ctx, buf[:n])
				}
			}
			if err != nil {
				return
			}
		}
	}()
	select {
	case <-read:
	case <-p.done:
		select {
		case <-read:
		case <-time.After(linger):
		}
	}
	p.out.Close()
	<-read
}

// run runs one command to its end, its timeout or the cancellation of
// ctx (then the error is ctx's, after every process has been stopped).
func (t *Tool) run(ctx context.Context, c call, net bool, budget int, stream func(context.Context, []byte)) (outcome, error) {
	l, o, err := t.begin(ctx, c, net, budget, stream)
	if l == nil {
		return o, err
	}
	o, stopped := t.wait(ctx, l, c)
	if stopped {
		return o, ctx.Err()
	}
	return o, nil
}

// live is a command that runs.
type live struct {
	p      *run
	cg     *cgroup
	out    *capture
	began  time.Time
	pumped chan struct{} // closed once the output is read to its end
}

// begin starts one command in its cgroup and sandbox, its output going
// to a capture of budget bytes and to stream. A command that cannot
// start gives a nil live and the outcome's startErr.
func (t *Tool) begin(ctx context.Context, c call, net bool, budget int, stream func(context.Context, []byte)) (*live, outcome, error) {
	o := outcome{out: newCapture(budget)}
	cmd, cg, err := t.command(c, net)
	if err != nil {
		return nil, o, err
	}
	l := &live{cg: cg, out: o.out, began: time.Now(), pumped: make(chan struct{})}
	l.p, err = start(cmd, !t.opts.NoSandbox)
	if err != nil {
		if cg != nil {
			cg.remove()
		}
		o.startErr = err
		return nil, o, nil
	}
	go func() {
		l.p.pump(ctx, l.out, stream, time.Second)
		close(l.pumped)
	}()
	return l, o, nil
}

// wait waits for the command's end, its timeout (none when c.timeout is
// 0) or the end of ctx, which stops it (stopped is then true), and
// reports how it ended once its output is read.
func (t *Tool) wait(ctx context.Context, l *live, c call) (o outcome, stopped bool) {
	o = outcome{out: l.out}
	if l.cg != nil {
		defer l.cg.remove()
	}
	var timeout <-chan time.Time
	if c.timeout > 0 {
		timer := time.NewTimer(c.timeout)
		defer timer.Stop()
		timeout = timer.C
	}
	select {
	case <-l.p.done:
	case <-timeout:
		o.timedOut = true
		l.p.stop(t.opts.Grace)
	case <-ctx.Done():
		stopped = true
		l.p.stop(t.opts.Grace)
	}
	if l.cg != nil && t.opts.NoSandbox {
		l.cg.kill(syscall.SIGKILL) // what left the session: nothing outlives the call
	}
	<-l.pumped
	o.took = time.Since(l.began)
	o.code, o.sig = l.p.exitCode()
	o.hitLimit = l.cg != nil && l.cg.hitLimit()
	o.oomKilled = l.cg != nil && l.cg.oomKilled()
	return o, stopped
}

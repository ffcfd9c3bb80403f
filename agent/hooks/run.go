package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"
)

// maxOutput bounds what is kept of each of a hook's standard output and
// error; the rest is read and dropped, so that the hook never blocks on
// a full pipe.
const maxOutput = 64 << 10

// ioWait is how long, once a hook's shell has ended, its output is
// waited for while a program it left in the background still holds it.
const ioWait = time.Second

// ran is how one hook's run ended.
type ran struct {
	code           int // the exit code; -1 when it did not exit by itself
	stdout, stderr []byte
	took           time.Duration
	// err is why it did not run to its end: it could not start, it
	// timed out, or ctx was cancelled.
	err error
}

// errTimedOut marks a hook ended at its time limit.
var errTimedOut = errors.New("timed out")

// run runs hook h on in's payload: its whole process group is killed at
// its time limit or when ctx is cancelled.
func (r *Runner) run(ctx context.Context, h Hook, in Input) ran {
	env := []string{"AGENT_PROJECT_DIR=" + r.o.Dir, "AGENT_HOOK_EVENT=" + string(h.Event)}
	if h.Claude {
		// The variable Claude Code's own hook commands are written with
		// ("$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py).
		env = append(env, "CLAUDE_PROJECT_DIR="+r.o.Dir)
	}
	if r.o.Start == nil {
		return ran{code: -1, err: errors.New("no way to start hooks here")}
	}
	cmd, err := r.o.Start(h, env)
	if err != nil {
		return ran{code: -1, err: err}
	}
	var stdout, stderr bounded
	cmd.Stdin = bytes.NewReader(payloadOf(h, in, r.o.Dir))
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = ioWait
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid = true // one process group to end
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return ran{code: -1, err: fmt.Errorf("start: %w", err)}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(h.limit())
	defer timer.Stop()
	var stopped error
	select {
	case err = <-done:
	case <-timer.C:
		stopped = fmt.Errorf("%w after %s", errTimedOut, h.limit())
	case <-ctx.Done():
		stopped = ctx.Err()
	}
	if stopped != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return ran{code: -1, stdout: stdout.b.Bytes(), stderr: stderr.b.Bytes(), took: time.Since(start), err: stopped}
	}
	res := ran{code: cmd.ProcessState.ExitCode(), stdout: stdout.b.Bytes(), stderr: stderr.b.Bytes(), took: time.Since(start)}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) && !errors.Is(err, exec.ErrWaitDelay) {
		res.err = err
	}
	return res
}

// bounded keeps the first maxOutput bytes written to it and drops the
// rest.
type bounded struct {
	b bytes.Buffer
}

func (w *bounded) Write(p []byte) (int, error) {
	if room := maxOutput - w.b.Len(); room > 0 {
		w.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

package shell

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/jobs"
)

// backgroundParam is run_command's flag for a job, offered when
// Options.Jobs is set.
var backgroundParam = tools.Param{Name: "background", Kind: tools.Boolean, Description: "return at once with a job id"}

// background starts c as a background job: the same sandbox, limits and
// launch as a call's command, then the same checks after it when it
// ends, reported to the model at its next request (package jobs). The
// job is recorded before the model hears its id; the same command
// already running in this folder is answered with that job's id.
func (t *Tool) background(ctx context.Context, c call) (tools.Result, error) {
	command := strings.TrimSpace(strings.ReplaceAll(c.command, "\r\n", "\n"))
	spec := jobs.Spec{Tool: "run_command", Args: map[string]string{"command": command}, Dir: t.root, Label: termtext.OneLine(command)}
	j, dup, err := t.opts.Jobs.Start(ctx, spec, func(ctx context.Context, j jobs.Job, out io.Writer, started func(int)) jobs.End {
		c.env = []string{j.Mark()}
		return t.runJob(ctx, c, out, started)
	})
	if err != nil {
		return tools.Result{}, fmt.Errorf("background job: %w", err)
	}
	id := strconv.FormatInt(j.ID, 10)
	meta := []tools.Attr{{Name: "job_id", Value: id}, {Name: "status", Value: string(j.Status)}}
	switch {
	case dup:
		return tools.Result{
			Message:  fmt.Sprintf("job %s already runs this command (for %s); no second one was started", id, j.Took(time.Now())),
			Metadata: meta,
			Content:  fmt.Sprintf("job_output job_id=%s reads its output.\n", id),
		}, nil
	case !j.Status.Active():
		return tools.Errorf(tools.CodeProviderError, "job %s did not start: %s", id, j.LastError), nil
	}
	net := "off"
	if t.network(c.command) {
		net = "on"
	}
	meta = append(meta, tools.Attr{Name: "network", Value: net})
	return tools.Result{
		Message:  "started job " + id + " in the background",
		Metadata: meta,
		Content: fmt.Sprintf("You are told in a later turn when job %s ends. job_output job_id=%s reads its output so far; job_stop job_id=%s stops it. It is stopped when this conversation ends.\n",
			id, id, id),
	}, nil
}

// runJob is a job's Runner: it runs c to its end and makes its End from
// the result a call would have had.
func (t *Tool) runJob(ctx context.Context, c call, out io.Writer, started func(int)) jobs.End {
	b := t.look(&c)
	stream := func(_ context.Context, p []byte) { out.Write(p) }
	l, o, err := t.begin(ctx, c, b.net, DefaultBudget, stream)
	if err != nil {
		return jobs.End{Err: err.Error()}
	}
	if l == nil {
		return jobs.End{Err: fmt.Sprintf("cannot start the command: %v", o.startErr)}
	}
	started(l.p.pid)
	o, _ = t.wait(ctx, l, c)
	r := t.conclude(c, b, o)
	end := jobs.End{
		ExitCode: o.code,
		HasExit:  o.sig == "" && o.code >= 0,
		Summary:  r.Message,
		Tail:     string(o.out.end()),
		Changed:  r.Changed,
		Alerts:   r.Alerts,
	}
	if r.IsError() { // its timeout
		end.Err = r.Message
	}
	return end
}

// StopProcess stops a background job's command from another process
// than the agent that started it (agent jobs stop), by the pid of its
// process group's leader: the steps of a call's own stop, SIGTERM to
// the command's processes and then, when the leader is still there after
// grace, SIGKILL to all of them. The caller makes sure pid is still the
// job's (its start time and parent).
func StopProcess(pid int, grace time.Duration) {
	t := terminator{pid: pid, sandboxed: commOf(pid) == "bwrap"}
	for deadline := time.Now().Add(grace); time.Now().Before(deadline); {
		t.term()
		if waitGone(pid, 100*time.Millisecond) {
			return
		}
	}
	killAll(pid)
	waitGone(pid, grace)
}

// commOf is the program name of process pid.
func commOf(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return strings.TrimSpace(string(b))
}

// waitGone waits at most d for process pid to end (a zombie has ended),
// and reports whether it did.
func waitGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Contains(string(st), ") Z ") || syscall.Kill(pid, 0) != nil {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

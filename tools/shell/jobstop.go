package shell

import (
	"context"
	"fmt"
	"time"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools/jobs"
)

// StopJob stops job j of st from outside its agent (agent jobs stop), the
// way the model's job_stop does: SIGTERM to its processes, then SIGKILL
// after DefaultGrace. The row may be anyone's (a cloned project's
// .agent): only a live agent's child that carries the job's mark is
// signalled. It waits a moment for the agent to record the end and
// returns the job as last read; still active means it was signalled and
// its end not yet recorded.
func StopJob(ctx context.Context, st *jobs.Store, j jobs.Job) (jobs.Job, error) {
	if !j.Status.Active() {
		return j, fmt.Errorf("job %d is not running: %s", j.ID, termtext.Escape(j.State(time.Now())))
	}
	p := j.Process()
	if p.PID == 0 || !p.Alive() || p.Parent() != j.OwnerPID || !j.Owner().Alive() || !j.Marks(p.PID) {
		return j, fmt.Errorf("job %d has no process of a running agent to stop (it is starting or just ended): try again, or see agent jobs", j.ID)
	}
	if err := st.RequestStop(ctx, j.ID); err != nil {
		return j, err
	}
	StopProcess(p.PID, DefaultGrace)
	// Its agent records the end: wait for that, a moment.
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if j, err = st.Get(ctx, j.ID); err != nil || !j.Status.Active() {
			break
		}
	}
	return j, err
}

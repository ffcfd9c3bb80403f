package jobs

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentcli/agent/tools"
)

var (
	//go:embed job_output.md
	outputDesc string
	//go:embed job_stop.md
	stopDesc string
)

// CodeNotFound is the error code of a job id that is not recorded.
const CodeNotFound = "JOB_NOT_FOUND"

// outputMax bounds one job_output answer, in bytes.
const outputMax = 16 << 10

// OutputArgs are job_output's parameters.
type OutputArgs struct {
	JobID  int64  `json:"job_id"`
	Offset *int64 `json:"offset,omitempty"`
}

// StopArgs are job_stop's parameters.
type StopArgs struct {
	JobID int64 `json:"job_id"`
}

// Tools returns job_output and job_stop over m. Neither counts as a
// write: reading output changes nothing, and stopping a job ends only
// what the model itself started. Neither is served to other agents, to
// whom run_command, which starts the jobs, is not either.
func Tools(m *Manager) []tools.Tool {
	return []tools.Tool{
		tools.New("job_output", outputDesc, m.outputTool, tools.Acts(tools.ActionRead), tools.NotServed(), tools.OnDemand()),
		tools.New("job_stop", stopDesc, m.stopTool, tools.Acts(tools.ActionExecute), tools.NotServed(), tools.OnDemand()),
	}
}

func (m *Manager) outputTool(ctx context.Context, a OutputArgs) (tools.Result, error) {
	j, err := m.Get(ctx, a.JobID)
	if res, err := notFound(a.JobID, err); res != nil || err != nil {
		return *res, err
	}
	from := int64(-1)
	if a.Offset != nil {
		if *a.Offset < 0 {
			return tools.Errorf(tools.CodeSchemaInvalid, "offset %d is negative: give the next_offset of the last job_output, or none for the latest output", *a.Offset), nil
		}
		from = *a.Offset
	}
	c, err := m.output(j, from, outputMax)
	if errors.Is(err, ErrBadLog) {
		return tools.Errorf(tools.CodePolicyDenied, "the output of job %d is not read: %v", j.ID, err), nil
	}
	if err != nil {
		return tools.Result{}, fmt.Errorf("read the output of job %d: %w", j.ID, err)
	}
	if !j.Status.Active() {
		m.told(j.ID)
	}
	var text strings.Builder
	if c.Skipped > 0 {
		fmt.Fprintf(&text, "[%d bytes before this are no longer kept: the log holds the last part of a long output]\n", c.Skipped)
	} else if a.Offset == nil && c.From > 0 {
		fmt.Fprintf(&text, "[the last %d of %d bytes]\n", c.Next-c.From, c.Total)
	}
	text.WriteString(strings.ToValidUTF8(string(c.Text), "\uFFFD"))
	if len(c.Text) == 0 {
		text.WriteString("(no new output)")
	}
	if c.Next < c.Total {
		fmt.Fprintf(&text, "\n[more output follows: job_output offset=%d]", c.Next)
	}
	res := tools.Result{
		Message:  fmt.Sprintf("job %d %s; %d bytes of output in all", j.ID, j.State(time.Now()), c.Total),
		Metadata: jobMeta(j, tools.Attr{Name: "next_offset", Value: strconv.FormatInt(c.Next, 10)}),
		Content:  text.String(),
	}
	return res, nil
}

func (m *Manager) stopTool(ctx context.Context, a StopArgs) (tools.Result, error) {
	j, err := m.Stop(ctx, a.JobID, "stopped with job_stop")
	if errors.Is(err, ErrOtherProcess) {
		return tools.Errorf(tools.CodePolicyDenied, "job %d runs in another agent process (pid %d): only that conversation, or agent jobs stop %d, can stop it", j.ID, j.OwnerPID, j.ID), nil
	}
	if res, err := notFound(a.JobID, err); res != nil || err != nil {
		return *res, err
	}
	m.told(j.ID)
	msg := fmt.Sprintf("stopped job %d: %s", j.ID, j.Summary)
	if j.Status != Stopped {
		msg = fmt.Sprintf("job %d had already ended: %s", j.ID, j.State(time.Now()))
	}
	return tools.Result{Message: msg, Metadata: jobMeta(j), Content: j.Preview}, nil
}

// notFound turns a missing job into the model's error and other
// failures into the program's; both nil when err is nil.
func notFound(id int64, err error) (*tools.Result, error) {
	switch {
	case err == nil:
		return nil, nil
	case errors.Is(err, ErrNotFound):
		res := tools.Errorf(CodeNotFound, "no job %d: a job id comes from run_command's result when it runs in the background", id)
		return &res, nil
	}
	return &tools.Result{}, err
}

func jobMeta(j Job, extra ...tools.Attr) []tools.Attr {
	meta := []tools.Attr{{Name: "job_id", Value: strconv.FormatInt(j.ID, 10)}, {Name: "status", Value: string(j.Status)}}
	if j.HasExit {
		meta = append(meta, tools.Attr{Name: "exit_code", Value: strconv.Itoa(j.ExitCode)})
	}
	return append(meta, extra...)
}

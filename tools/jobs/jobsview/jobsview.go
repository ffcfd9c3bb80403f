// Package jobsview shows the project's background jobs to a person: the
// table of agent jobs and its JSON. A job's command is anyone's text: it
// is shown escaped and clipped.
package jobsview

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools/jobs"
)

// Table prints the jobs, oldest first, their times as of now.
func Table(w io.Writer, list []jobs.Job, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tSTARTED\tTOOK\tEXIT\tCOMMAND")
	for _, j := range list {
		started, took, exit := "-", "-", "-"
		if !j.Started.IsZero() {
			started = j.Started.Local().Format("2006-01-02 15:04:05")
		}
		if !j.Started.IsZero() && j.Status != jobs.Lost { // a lost job's end is unknown
			took = j.Took(now).String()
		}
		if j.HasExit {
			exit = strconv.Itoa(j.ExitCode)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", j.ID, j.Status, started, took, exit, termtext.Escape(termtext.Clip(termtext.OneLine(j.Label), 60)))
	}
	return tw.Flush()
}

// jobJSON is one job of `agent jobs --json`.
type jobJSON struct {
	ID        int64      `json:"id"`
	Status    string     `json:"status"`
	Command   string     `json:"command"`
	Dir       string     `json:"dir"`
	Attempts  int        `json:"attempts"`
	Created   time.Time  `json:"created"`
	Started   *time.Time `json:"started,omitempty"`
	Finished  *time.Time `json:"finished,omitempty"`
	ExitCode  *int       `json:"exit_code,omitempty"`
	Summary   string     `json:"summary,omitempty"`
	Preview   string     `json:"result_preview,omitempty"`
	LastError string     `json:"last_error,omitempty"`
	AgentPID  int        `json:"agent_pid"`
}

// JSON prints the jobs as a JSON array.
func JSON(w io.Writer, list []jobs.Job) error {
	out := make([]jobJSON, 0, len(list))
	for _, j := range list {
		o := jobJSON{ID: j.ID, Status: string(j.Status), Command: j.Label, Dir: j.Dir, Attempts: j.Attempts, Created: j.Created,
			Summary: j.Summary, Preview: j.Preview, LastError: j.LastError, AgentPID: j.OwnerPID}
		if !j.Started.IsZero() {
			o.Started = &j.Started
		}
		if !j.Finished.IsZero() {
			o.Finished = &j.Finished
		}
		if j.HasExit {
			o.ExitCode = &j.ExitCode
		}
		out = append(out, o)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// Output prints what job j of st wrote, as kept (its last part, about
// 1 MB), control characters escaped, saying on errOut when its start is
// no longer kept.
func Output(w, errOut io.Writer, st *jobs.Store, j jobs.Job) error {
	c, err := st.Output(j, 0, 2*jobs.LogCap)
	if err != nil {
		return fmt.Errorf("read the output of job %d: %w", j.ID, err)
	}
	if c.Skipped > 0 {
		fmt.Fprintf(errOut, "agent: the first %d bytes of the output are no longer kept\n", c.Skipped)
	}
	_, err = fmt.Fprint(w, termtext.Escape(string(c.Text)))
	return err
}

package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/tools/jobs"
	"github.com/agentcli/agent/tools/jobs/jobsview"
	"github.com/agentcli/agent/tools/shell"
)

// openJobs opens the project's jobs database, nil when it does not
// exist (no job was ever started there). Opening marks lost the jobs of
// agent processes that died.
func openJobs(ctx context.Context, dir string) (*jobs.Store, error) {
	root, err := projectFolder(dir)
	if err != nil {
		return nil, err
	}
	return jobs.OpenProject(ctx, root)
}

func newJobsCmd(d *factory) *cobra.Command {
	var (
		dir    string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "jobs",
		Short: "List this project's background jobs (and stop one)",
		Long: `jobs lists the background jobs recorded in .agent/jobs.db, oldest first:
the commands the model started with run_command's background flag. Each
shows its id, status (queued, running, done, failed, stopped, or lost when
the agent that ran it was killed), when it started, how long it ran, its
exit code and its command. 'agent jobs output ID' prints a job's output,
'agent jobs stop ID' stops one that runs.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := openJobs(cmd.Context(), dir)
			if err != nil || st == nil {
				if err == nil && !asJSON {
					fmt.Fprintln(d.io.Out, "no background jobs yet")
				} else if err == nil {
					fmt.Fprintln(d.io.Out, "[]")
				}
				return err
			}
			defer st.Close()
			list, err := st.List(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return jobsview.JSON(d.io.Out, list)
			}
			if len(list) == 0 {
				fmt.Fprintln(d.io.Out, "no background jobs yet")
				return nil
			}
			return jobsview.Table(d.io.Out, list, time.Now())
		},
	}
	cmd.PersistentFlags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the jobs as JSON")
	cmd.AddCommand(newJobsStopCmd(d, &dir), newJobsOutputCmd(d, &dir))
	return cmd
}

// jobArg reads a job id argument and the job it names.
func jobArg(ctx context.Context, dir, arg string) (*jobs.Store, jobs.Job, error) {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || id < 1 {
		return nil, jobs.Job{}, usageErrorf("job id %q: give the number agent jobs lists", arg)
	}
	st, err := openJobs(ctx, dir)
	if err != nil {
		return nil, jobs.Job{}, err
	}
	if st == nil {
		return nil, jobs.Job{}, fmt.Errorf("no job %d: no background job was ever started in this project", id)
	}
	j, err := st.Get(ctx, id)
	if errors.Is(err, jobs.ErrNotFound) {
		err = fmt.Errorf("no job %d: agent jobs lists the jobs", id)
	}
	if err != nil {
		st.Close()
		return nil, j, err
	}
	return st, j, nil
}

func newJobsStopCmd(d *factory, dir *string) *cobra.Command {
	return &cobra.Command{
		Use:   "stop ID",
		Short: "Stop a background job that runs",
		Long: `stop ends the job's command the way the model's job_stop does: SIGTERM to
its processes, then SIGKILL after a grace period. Only a job whose agent
process still runs can be stopped: the job's process must still be that
agent's child (a job of an agent that was killed has ended with it, and
is listed as lost), and it must carry the job's mark (the AGENT_JOB
variable the agent gives each job's processes).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			st, j, err := jobArg(ctx, *dir, args[0])
			if err != nil {
				return err
			}
			defer st.Close()
			if j, err = shell.StopJob(ctx, st, j); err != nil {
				return err
			}
			if j.Status.Active() {
				fmt.Fprintf(d.io.Out, "job %d was signalled; its agent has not recorded its end yet\n", j.ID)
				return nil
			}
			fmt.Fprintf(d.io.Out, "job %d %s\n", j.ID, safeText(j.State(time.Now())))
			return nil
		},
	}
}

func newJobsOutputCmd(d *factory, dir *string) *cobra.Command {
	return &cobra.Command{
		Use:   "output ID",
		Short: "Print a background job's output",
		Long: `output prints what the job wrote (stdout and stderr together), as kept in
.agent/jobs/ID.log: a long output keeps its last part (about 1 MB).
Control characters are shown escaped.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, j, err := jobArg(cmd.Context(), *dir, args[0])
			if err != nil {
				return err
			}
			defer st.Close()
			return jobsview.Output(d.io.Out, d.io.ErrOut, st, j)
		},
	}
}

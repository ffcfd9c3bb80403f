package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/agentcli/agent/internal/termtext"
)

// columns are the jobs table's columns in scanJob's order.
const columns = `id, dedupe_key, tool, args, dir, label, status, attempts, created_at, started_at,
	finished_at, exit_code, summary, result_preview, last_error, owner_pid, owner_start, pid, pid_start, log_dropped, token`

type scanner interface{ Scan(...any) error }

func scanJob(r scanner) (Job, error) {
	var (
		j                          Job
		created, started, finished int64
		exit                       sql.NullInt64
		ownerStart, pidStart       int64
	)
	err := r.Scan(&j.ID, &j.DedupeKey, &j.Tool, &j.Args, &j.Dir, &j.Label, &j.Status, &j.Attempts, &created, &started,
		&finished, &exit, &j.Summary, &j.Preview, &j.LastError, &j.OwnerPID, &ownerStart, &j.PID, &pidStart, &j.LogDropped, &j.Token)
	if err != nil {
		return j, err
	}
	j.Created, j.Started, j.Finished = fromMS(created), fromMS(started), fromMS(finished)
	j.ExitCode, j.HasExit = int(exit.Int64), exit.Valid
	j.OwnerStart, j.PIDStart = uint64(ownerStart), uint64(pidStart)
	return j, nil
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v)
}

// Owner is the agent process that recorded the job.
func (j Job) Owner() Process { return Process{PID: j.OwnerPID, Start: j.OwnerStart} }

// Process is the job's own process (the leader of its process group);
// PID 0 before it started.
func (j Job) Process() Process { return Process{PID: j.PID, Start: j.PIDStart} }

// Enqueue records a job for spec, owned by owner, as queued, and
// returns it. When an active job with the same dedupe key is recorded
// and its owner lives, nothing is added: that job is returned with dup
// true. One whose owner is gone is marked lost first.
func (s *Store) Enqueue(ctx context.Context, spec Spec, owner Process, now time.Time) (j Job, dup bool, err error) {
	key := spec.DedupeKey()
	tx, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: one writer decides at a time
	if err != nil {
		return j, false, s.wrap(err)
	}
	defer tx.Rollback()
	j, err = scanJob(tx.QueryRowContext(ctx, "SELECT "+columns+" FROM jobs WHERE dedupe_key = ? AND status IN ('queued', 'running')", key))
	switch {
	case err == nil && j.Owner().Alive():
		return j, true, s.wrap(tx.Commit())
	case err == nil:
		if err := markLost(ctx, tx, j, now); err != nil {
			return j, false, s.wrap(err)
		}
	case !errors.Is(err, sql.ErrNoRows):
		return j, false, s.wrap(err)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO jobs (dedupe_key, tool, args, dir, label, status, created_at, owner_pid, owner_start, token)
		VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?)`,
		key, spec.Tool, spec.argsJSON(), spec.Dir, spec.Label, ms(now), owner.PID, int64(owner.Start), newToken())
	if err != nil {
		return j, false, s.wrap(err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return j, false, s.wrap(err)
	}
	j, err = scanJob(tx.QueryRowContext(ctx, "SELECT "+columns+" FROM jobs WHERE id = ?", id))
	if err != nil {
		return j, false, s.wrap(err)
	}
	return j, false, s.wrap(tx.Commit())
}

// MarkRunning records that job id's process p started.
func (s *Store) MarkRunning(ctx context.Context, id int64, p Process, now time.Time) error {
	res, err := s.db.ExecContext(ctx, `UPDATE jobs SET status = 'running', attempts = attempts + 1, started_at = ?, pid = ?, pid_start = ?
		WHERE id = ? AND status = 'queued'`, ms(now), p.PID, int64(p.Start), id)
	if err != nil {
		return s.wrap(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return s.wrap(fmt.Errorf("job %d is no longer queued", id))
	}
	return nil
}

// Finish records how job id ended and returns it as recorded. stopped,
// when not "", says who stopped it; a stop asked for through the
// database (RequestStop) counts too. A job that is no longer active (it
// was marked lost meanwhile) is returned unchanged.
func (s *Store) Finish(ctx context.Context, id int64, end End, stopped string, now time.Time) (Job, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Job{}, s.wrap(err)
	}
	defer tx.Rollback()
	var (
		status  Status
		request bool
	)
	if err := tx.QueryRowContext(ctx, "SELECT status, stop_requested FROM jobs WHERE id = ?", id).Scan(&status, &request); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			err = fmt.Errorf("%w: %d", ErrNotFound, id)
		}
		return Job{}, s.wrap(err)
	}
	if status.Active() {
		if request && stopped == "" {
			stopped = "stopped with agent jobs stop"
		}
		final, lastErr := outcome(end, stopped)
		// The alerts are kept with the summary, for the person's agent
		// jobs (the notice tells the model).
		summary := end.Summary
		for _, a := range end.Alerts {
			summary += "; " + termtext.OneLine(a)
		}
		var exit any
		if end.HasExit {
			exit = end.ExitCode
		}
		_, err := tx.ExecContext(ctx, `UPDATE jobs SET status = ?, attempts = max(attempts, 1), finished_at = ?, exit_code = ?,
			summary = ?, result_preview = ?, last_error = ? WHERE id = ?`,
			final, ms(now), exit, summary, lastBytes(end.Tail, previewMax), lastErr, id)
		if err != nil {
			return Job{}, s.wrap(err)
		}
	}
	j, err := scanJob(tx.QueryRowContext(ctx, "SELECT "+columns+" FROM jobs WHERE id = ?", id))
	if err != nil {
		return j, s.wrap(err)
	}
	return j, s.wrap(tx.Commit())
}

// previewMax bounds the result preview kept with a job: the end of its
// output.
const previewMax = 1 << 10

// outcome is the final status of an end and its last error.
func outcome(end End, stopped string) (Status, string) {
	switch {
	case stopped != "":
		return Stopped, stopped
	case end.Err != "":
		return Failed, end.Err
	case !end.HasExit || end.ExitCode != 0:
		return Failed, end.Summary
	}
	return Done, ""
}

// RequestStop marks active job id to be recorded as stopped when it
// ends (agent jobs stop, from another process than its owner).
func (s *Store) RequestStop(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, "UPDATE jobs SET stop_requested = 1 WHERE id = ? AND status IN ('queued', 'running')", id)
	return s.wrap(err)
}

// SetDropped records how many bytes were cut from the start of job id's
// log.
func (s *Store) SetDropped(ctx context.Context, id, n int64) error {
	_, err := s.db.ExecContext(ctx, "UPDATE jobs SET log_dropped = ? WHERE id = ?", n, id)
	return s.wrap(err)
}

// Get returns job id (ErrNotFound when there is none).
func (s *Store) Get(ctx context.Context, id int64) (Job, error) {
	j, err := scanJob(s.db.QueryRowContext(ctx, "SELECT "+columns+" FROM jobs WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return j, fmt.Errorf("%w: %d", ErrNotFound, id)
	}
	return j, s.wrap(err)
}

// List returns the recorded jobs, oldest first.
func (s *Store) List(ctx context.Context) ([]Job, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+columns+" FROM jobs ORDER BY id")
	if err != nil {
		return nil, s.wrap(err)
	}
	defer rows.Close()
	var out []Job
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, s.wrap(err)
		}
		out = append(out, j)
	}
	return out, s.wrap(rows.Err())
}

// recover marks lost the active jobs whose agent process is gone, and
// deletes the oldest ended jobs beyond keepEnded with their logs.
func (s *Store) recover(ctx context.Context) error {
	jobs, err := s.List(ctx)
	if err != nil {
		return err
	}
	now := time.Now()
	var ended []Job
	for _, j := range jobs {
		switch {
		case j.Status.Active() && !j.Owner().Alive():
			if err := markLost(ctx, s.db, j, now); err != nil {
				return s.wrap(err)
			}
			endLeftovers(j)
		case !j.Status.Active():
			ended = append(ended, j)
		}
	}
	for len(ended) > keepEnded {
		j := ended[0]
		ended = ended[1:]
		if _, err := s.db.ExecContext(ctx, "DELETE FROM jobs WHERE id = ?", j.ID); err != nil {
			return s.wrap(err)
		}
		os.Remove(s.LogPath(j.ID))
	}
	return nil
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// markLost records that job j's agent process died without recording
// its end.
func markLost(ctx context.Context, db execer, j Job, now time.Time) error {
	_, err := db.ExecContext(ctx, "UPDATE jobs SET status = 'lost', finished_at = ?, last_error = ? WHERE id = ? AND status IN ('queued', 'running')",
		ms(now), fmt.Sprintf("its agent process (pid %d) ended without recording the job's end (killed, or the machine stopped)", j.OwnerPID), j.ID)
	return err
}

// Output reads at most max bytes of job j's output from offset from, or
// its last max bytes when from is negative, from the log as it is now.
func (s *Store) Output(j Job, from int64, max int) (Chunk, error) {
	return readLog(s.LogPath(j.ID), j.LogDropped, from, max)
}

// Package jobs keeps background jobs: a slow command the model starts
// with run_command's background flag runs on while the conversation goes
// on, and its end is told to the model at its next request.
//
// A job is a row of a SQLite table (.agent/jobs.db) written before
// anyone is told the job exists: its id, the dedupe key (a hash of the
// tool, its arguments and the working folder), the status (queued,
// running, done, failed, stopped, lost), attempts, the times it was
// created, started and finished, its exit code, a preview of its result
// and the last error. Its output goes to .agent/jobs/ID.log, a file
// capped in size that keeps the tail.
//
// A Manager is one conversation's jobs: it starts them through a Runner
// (package shell's, which knows the sandbox; this package knows no
// shell), recognises a duplicate start of a job that still runs, stops
// a job on request or when the conversation closes, and collects the
// one-line notices of jobs that ended. A job whose agent process died
// (killed, so nobody recorded its end) is marked lost by the next
// process that opens the database: each row records its agent's pid and
// that process's start time.
package jobs

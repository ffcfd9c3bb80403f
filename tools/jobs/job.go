package jobs

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Status is where a job is in its life.
type Status string

// The statuses of a job. Queued and Running are active: a start of the
// same job then is a duplicate. The others are final.
const (
	Queued  Status = "queued"  // recorded, its process not started yet
	Running Status = "running" // its process runs
	Done    Status = "done"    // it exited with code 0
	Failed  Status = "failed"  // it exited with another code, was killed, timed out or could not start
	Stopped Status = "stopped" // someone stopped it (job_stop, agent jobs stop, the conversation's end)
	Lost    Status = "lost"    // its agent process died without recording its end
)

// Active reports whether a job with this status has not ended.
func (s Status) Active() bool { return s == Queued || s == Running }

// Job is one background job as recorded.
type Job struct {
	ID        int64
	DedupeKey string
	// Tool is the tool that runs it ("run_command"); Args its
	// arguments as recorded (JSON object); Dir the working folder.
	Tool string
	Args string
	Dir  string
	// Label is what it runs, for people and notices: the command line.
	Label    string
	Status   Status
	Attempts int
	Created  time.Time
	Started  time.Time // zero until it runs
	Finished time.Time // zero until it ends
	// ExitCode is the process's exit code; HasExit is false until it
	// exited, and stays false when a signal ended it.
	ExitCode int
	HasExit  bool
	// Summary is how it ended, in one line ("exit code 0 after 2s");
	// Preview the last bytes of its output; LastError why it failed,
	// was stopped or was lost.
	Summary   string
	Preview   string
	LastError string
	// OwnerPID and OwnerStart identify the agent process that runs it
	// (its pid and start time, so a reused pid is not taken for it);
	// PID and PIDStart the job's own process, the leader of its process
	// group.
	OwnerPID   int
	OwnerStart uint64
	PID        int
	PIDStart   uint64
	// LogDropped counts the bytes cut from the start of the log file to
	// keep it within its cap.
	LogDropped int64
	// Token is the job's random mark: its processes carry it in their
	// environment (Mark), by which they are told from any other.
	Token string
}

// Spec is a job to start.
type Spec struct {
	Tool string
	// Args are the arguments that make the job what it is, normalised
	// by the caller (the command line trimmed): they are recorded, and
	// with Tool and Dir they make the dedupe key.
	Args  map[string]string
	Dir   string
	Label string
}

// DedupeKey is the key that makes two starts the same job: a hash of
// the tool, the arguments and the working folder.
func (s Spec) DedupeKey() string {
	args, _ := json.Marshal(s.Args) // map keys are sorted
	sum := sha256.Sum256([]byte(s.Tool + "\x00" + string(args) + "\x00" + s.Dir))
	return hex.EncodeToString(sum[:16])
}

func (s Spec) argsJSON() string {
	b, _ := json.Marshal(s.Args)
	return string(b)
}

// End is how a job's process ended, as its Runner saw it.
type End struct {
	// ExitCode is the exit code when the process exited; HasExit is
	// false when a signal ended it or it never started.
	ExitCode int
	HasExit  bool
	// Summary says how it ended in one line, the way a foreground call
	// would ("exit code 0 after 2s; 1 project file changed").
	Summary string
	// Err says why it could not start or was cut short (its timeout);
	// "" when it ran to its end.
	Err string
	// Tail is the end of its output.
	Tail string
	// Changed are the project files that changed while it ran; Alerts
	// what the person must be told (a git repository it planted, moved
	// away).
	Changed []string
	Alerts  []string
}

// Took is how long job j ran (until now while it runs; zero before it
// started), rounded for people.
func (j Job) Took(now time.Time) time.Duration {
	if j.Started.IsZero() {
		return 0
	}
	end := j.Finished
	if end.IsZero() {
		end = now
	}
	return end.Sub(j.Started).Round(100 * time.Millisecond)
}

// State says in a few words where job j is: "is running (for 12s)",
// "done: exit code 0 after 2s", "lost: ...".
func (j Job) State(now time.Time) string {
	switch j.Status {
	case Queued:
		return "is queued"
	case Running:
		return fmt.Sprintf("is running (for %s)", j.Took(now))
	}
	why := j.Summary
	if why == "" || j.Status == Lost || j.Status == Stopped {
		why = strings.TrimSpace(strings.Join([]string{j.LastError, j.Summary}, "; "))
		why = strings.Trim(why, "; ")
	}
	return fmt.Sprintf("%s: %s", j.Status, why)
}

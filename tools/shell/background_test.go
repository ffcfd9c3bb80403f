package shell

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/jobs"
)

// withJobs is run_command with background jobs in project dir, and a
// registry holding it and the job tools, as the conversation builds it.
func withJobs(t *testing.T, dir string, opts Options) (*tools.Registry, *jobs.Manager) {
	t.Helper()
	m := jobs.NewManager(jobs.Options{
		Path:    filepath.Join(dir, jobs.DefaultPath),
		LogDir:  filepath.Join(dir, jobs.DefaultLogDir),
		Prepare: func() error { return os.MkdirAll(filepath.Join(dir, ".agent"), 0o755) },
	})
	t.Cleanup(func() { m.Close() })
	opts.Jobs = m
	reg := tools.NewRegistry(New(dir, opts))
	for _, tool := range jobs.Tools(m) {
		reg.Add(tool)
	}
	return reg, m
}

func callTool(t *testing.T, reg *tools.Registry, name string, args ...string) tools.Result {
	t.Helper()
	m := map[string]string{}
	for i := 0; i+1 < len(args); i += 2 {
		m[args[i]] = args[i+1]
	}
	res, err := reg.Call(t.Context(), name, m)
	if err != nil {
		t.Fatalf("%s(%v) error = %v", name, m, err)
	}
	return res
}

// recorded reads job id as another process would, from the database.
func recorded(t *testing.T, dir string, id string) jobs.Job {
	t.Helper()
	s, err := jobs.Open(t.Context(), filepath.Join(dir, jobs.DefaultPath), filepath.Join(dir, jobs.DefaultLogDir))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n, _ := strconv.ParseInt(id, 10, 64)
	j, err := s.Get(t.Context(), n)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// notices waits for the manager's notices.
func notices(t *testing.T, m *jobs.Manager) (lines, changed []string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if lines, changed = m.TakeNotices(); len(lines) > 0 {
			return lines, changed
		}
	}
	t.Fatal("no notice of the job's end")
	return nil, nil
}

func TestBackgroundJobRunsInTheSandboxAndItsEndIsTold(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	reg, m := withJobs(t, dir, Options{})
	began := time.Now()
	res := callTool(t, reg, "run_command", "command", "sleep 1; echo done > out.txt; echo done; touch /usr/escape-probe 2>/dev/null || echo sandboxed; echo mark=${AGENT_JOB:+set}", "background", "true")
	if res.IsError() || meta(res, "job_id") != "1" || meta(res, "status") != "running" {
		t.Fatalf("start = %s %s %v", res.Code, res.Message, res.Metadata)
	}
	if time.Since(began) > 900*time.Millisecond {
		t.Errorf("the call took %s: it waited for the command", time.Since(began))
	}
	// Recorded, running, before the model reads the result.
	if j := recorded(t, dir, "1"); j.Status != jobs.Running || j.PID == 0 || j.Label == "" {
		t.Errorf("at the result the job is recorded as %+v, want running with its pid", j)
	}
	lines, changed := notices(t, m)
	if len(lines) != 1 {
		t.Fatalf("notices = %q", lines)
	}
	for _, want := range []string{"Background job 1", "exit code 0", `done\nsandboxed\nmark=set`, "out.txt"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("notice %q lacks %q", lines[0], want)
		}
	}
	if len(changed) != 1 || changed[0] != "out.txt" {
		t.Errorf("changed = %q, want out.txt", changed)
	}
	if j := recorded(t, dir, "1"); j.Status != jobs.Done || j.ExitCode != 0 || !strings.Contains(j.Preview, "sandboxed") {
		t.Errorf("recorded at its end: %+v", j)
	}
	if _, err := os.Stat("/usr/escape-probe"); err == nil {
		t.Error("the job wrote outside the project")
	}
}

func TestADuplicateStartGetsTheRunningJobsID(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	reg, _ := withJobs(t, dir, Options{})
	first := callTool(t, reg, "run_command", "command", "sleep 30", "background", "true")
	second := callTool(t, reg, "run_command", "command", "  sleep 30\n", "background", "true")
	if meta(first, "job_id") == "" || meta(second, "job_id") != meta(first, "job_id") || !strings.Contains(second.Message, "already runs") {
		t.Fatalf("second start = %s %v, want job %s again", second.Message, second.Metadata, meta(first, "job_id"))
	}
	other := callTool(t, reg, "run_command", "command", "sleep 31", "background", "true")
	if meta(other, "job_id") == meta(first, "job_id") {
		t.Errorf("another command got the same job")
	}
}

func TestJobStopEndsTheWholeProcessGroup(t *testing.T) {
	for _, sandbox := range []bool{true, false} {
		t.Run("sandbox="+strconv.FormatBool(sandbox), func(t *testing.T) {
			if sandbox {
				needBwrap(t)
			}
			dir := project(t, nil)
			reg, m := withJobs(t, dir, Options{NoSandbox: !sandbox})
			// A child shell that traps nothing, its own child (the
			// grandchild), and a sibling.
			n := strconv.Itoa(47000 + os.Getpid()%1000*2)
			if !sandbox {
				n = strconv.Itoa(48000 + os.Getpid()%1000*2)
			}
			res := callTool(t, reg, "run_command", "command", "sh -c 'sleep "+n+"1; :' & sleep "+n+"2; wait", "background", "true")
			id := meta(res, "job_id")
			for deadline := time.Now().Add(10 * time.Second); !(processWith("sleep "+n+"1") && processWith("sleep "+n+"2")); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the job's processes did not start")
				}
			}
			res = callTool(t, reg, "job_stop", "job_id", id)
			if res.IsError() || meta(res, "status") != "stopped" || !strings.HasPrefix(res.Message, "stopped job "+id) {
				t.Fatalf("job_stop = %s %s %v", res.Code, res.Message, res.Metadata)
			}
			for _, p := range []string{"sh -c sleep " + n + "1", "sleep " + n + "1", "sleep " + n + "2"} {
				if !gone(p) {
					t.Errorf("%q still runs after job_stop", p)
				}
			}
			if j := recorded(t, dir, id); j.Status != jobs.Stopped || j.LastError != "stopped with job_stop" {
				t.Errorf("recorded %s %q", j.Status, j.LastError)
			}
			if lines, _ := m.TakeNotices(); len(lines) != 0 {
				t.Errorf("the model was told again: %q", lines)
			}
		})
	}
}

func TestStopProcessStopsAJobOfAnotherAgent(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	reg, m := withJobs(t, dir, Options{})
	n := strconv.Itoa(46000 + os.Getpid()%1000)
	res := callTool(t, reg, "run_command", "command", "sleep "+n+"; echo never", "background", "true")
	j := recorded(t, dir, meta(res, "job_id"))
	// What agent jobs stop does, from outside the owner.
	s, err := jobs.Open(t.Context(), filepath.Join(dir, jobs.DefaultPath), filepath.Join(dir, jobs.DefaultLogDir))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if p := j.Process(); !p.Alive() || p.Parent() != os.Getpid() {
		t.Fatalf("the job's process %+v is not this agent's child", p)
	}
	if err := s.RequestStop(t.Context(), j.ID); err != nil {
		t.Fatal(err)
	}
	StopProcess(j.PID, DefaultGrace)
	if !gone("sleep " + n) {
		t.Error("the command still runs")
	}
	lines, _ := notices(t, m)
	if got := recorded(t, dir, meta(res, "job_id")); got.Status != jobs.Stopped || got.LastError != "stopped with agent jobs stop" {
		t.Errorf("recorded %s %q", got.Status, got.LastError)
	}
	// The person stopped it, not the model: the model is told.
	if !strings.Contains(lines[0], "was stopped with agent jobs stop: ") {
		t.Errorf("notice = %q", lines[0])
	}
}

func TestAJobsEndRunsTheChecksOfACommand(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	reg, m := withJobs(t, dir, Options{})
	callTool(t, reg, "run_command", "command", "sleep 0.3; mkdir -p vendor/lib/.git && echo '[core]' > vendor/lib/.git/config", "background", "true")
	lines, _ := notices(t, m)
	if !strings.Contains(lines[0], "created vendor/lib/.git") || !strings.Contains(lines[0], ".agent/quarantine") {
		t.Errorf("notice %q does not tell of the planted repository", lines[0])
	}
	if _, err := os.Stat(filepath.Join(dir, "vendor/lib/.git")); err == nil {
		t.Error("the planted repository was left in place")
	}
	// The record keeps the alert for the person (agent jobs --json).
	if j := recorded(t, dir, "1"); !strings.Contains(j.Summary, "created vendor/lib/.git") {
		t.Errorf("recorded summary %q lacks the alert", j.Summary)
	}
}

func TestABackgroundJobWithATimeoutFailsPastIt(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	reg, m := withJobs(t, dir, Options{})
	res := callTool(t, reg, "run_command", "command", "echo started; sleep 30", "background", "true", "timeout", "1")
	lines, _ := notices(t, m)
	if j := recorded(t, dir, meta(res, "job_id")); j.Status != jobs.Failed || !strings.Contains(j.LastError, "timeout of 1s") {
		t.Errorf("recorded %s %q, want failed past its timeout", j.Status, j.LastError)
	}
	if !strings.Contains(lines[0], "failed: the command ran past its timeout of 1s") {
		t.Errorf("notice = %q", lines[0])
	}
}

func TestNoBackgroundParameterWithoutJobs(t *testing.T) {
	if _, ok := New(t.TempDir(), Options{}).Definition().Param("background"); ok {
		t.Error("run_command offers background without a job manager")
	}
	m := jobs.NewManager(jobs.Options{Path: filepath.Join(t.TempDir(), "jobs.db")})
	defer m.Close()
	if p, ok := New(t.TempDir(), Options{Jobs: m}).Definition().Param("background"); !ok || p.Kind != tools.Boolean {
		t.Error("run_command with jobs has no boolean background parameter")
	}
}

// A job stopped right after it started, before the sandbox ran its
// command, still gets SIGTERM (not only SIGKILL after the grace period):
// the command's processes that appear meanwhile are signalled too.
func TestAJobStoppedAtOnceIsTerminatedNotKilled(t *testing.T) {
	needBwrap(t)
	dir := project(t, nil)
	reg, _ := withJobs(t, dir, Options{Grace: 20 * time.Second})
	res := callTool(t, reg, "run_command", "command", "sleep 30", "background", "true")
	res = callTool(t, reg, "job_stop", "job_id", meta(res, "job_id"))
	if meta(res, "status") != "stopped" || !strings.Contains(res.Message, "exit code 143") {
		t.Errorf("job_stop = %s, want the command ended by SIGTERM (exit code 143 through bubblewrap)", res.Message)
	}
}

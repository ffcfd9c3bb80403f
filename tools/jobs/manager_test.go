package jobs

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/tools"
)

func TestAnEndedJobIsToldOnceWithItsOutput(t *testing.T) {
	m, _ := newManager(t)
	j, _, err := m.Start(t.Context(), spec("sleep 0.1; echo done"), process("sleep 0.1; echo done"))
	if err != nil {
		t.Fatal(err)
	}
	if lines, _ := m.TakeNotices(); len(lines) != 0 {
		t.Errorf("notices while it runs: %q", lines)
	}
	var lines []string
	waitFor(t, "the job's notice", func() bool { lines, _ = m.TakeNotices(); return len(lines) > 0 })
	if len(lines) != 1 || strings.Contains(lines[0], "\n") {
		t.Fatalf("notices = %q, want one line", lines)
	}
	for _, want := range []string{"Background job 1 (sleep 0.1; echo done) ended", "exit code 0", `Output ends: "done"`} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("notice %q lacks %q", lines[0], want)
		}
	}
	if again, _ := m.TakeNotices(); len(again) != 0 {
		t.Errorf("told twice: %q", again)
	}
	got, _ := m.Get(t.Context(), j.ID)
	if got.Status != Done || !got.HasExit || got.ExitCode != 0 || got.Preview != "done" || got.Finished.IsZero() {
		t.Errorf("recorded %+v, want done, exit 0, preview done", got)
	}
}

func TestFailingJobIsFailedWithItsExitCode(t *testing.T) {
	m, _ := newManager(t)
	j, _, _ := m.Start(t.Context(), spec("exit 3"), process("echo oops; exit 3"))
	var lines []string
	waitFor(t, "the job's notice", func() bool { lines, _ = m.TakeNotices(); return len(lines) > 0 })
	got, _ := m.Get(t.Context(), j.ID)
	if got.Status != Failed || got.ExitCode != 3 || got.LastError != "exit code 3" {
		t.Errorf("recorded %s exit %d last error %q, want failed, 3", got.Status, got.ExitCode, got.LastError)
	}
	if !strings.Contains(lines[0], "exit code 3") || !strings.Contains(lines[0], "oops") {
		t.Errorf("notice %q", lines[0])
	}
}

func TestAJobThatCannotStartIsFailedAndSaysWhy(t *testing.T) {
	m, _ := newManager(t)
	j, dup, err := m.Start(t.Context(), spec("x"), func(context.Context, Job, io.Writer, func(int)) End {
		return End{Err: "cannot start the command: no such program"}
	})
	if err != nil || dup || j.Status != Failed || j.LastError != "cannot start the command: no such program" || j.Attempts != 1 {
		t.Errorf("Start = %+v, %v; want failed with the reason, one attempt", j, err)
	}
	// Start's answer told it; no notice repeats it.
	if lines, _ := m.TakeNotices(); len(lines) != 0 {
		t.Errorf("notices = %q", lines)
	}
}

func TestAJobThatEndsAtOnceStartedAndIsTold(t *testing.T) {
	m, _ := newManager(t)
	for range 20 { // its end races Start's return
		j, _, err := m.Start(t.Context(), spec("true"), process("true"))
		if err != nil || j.Status != Running {
			t.Fatalf("Start = %s, %v; want it as it started, running", j.Status, err)
		}
		waitFor(t, "its notice", func() bool { lines, _ := m.TakeNotices(); return len(lines) == 1 })
	}
}

func TestStopEndsTheJobAsStoppedAndItsEndIsNotToldAgain(t *testing.T) {
	m, _ := newManager(t)
	j, _, _ := m.Start(t.Context(), spec("sleep 30"), process("sleep 30"))
	got, err := m.Stop(t.Context(), j.ID, "stopped with job_stop")
	if err != nil || got.Status != Stopped || got.LastError != "stopped with job_stop" {
		t.Fatalf("Stop = %+v, %v; want stopped", got, err)
	}
	m.told(j.ID) // job_stop's result told the model
	if lines, _ := m.TakeNotices(); len(lines) != 0 {
		t.Errorf("notices after job_stop: %q", lines)
	}
	// Stopping it again returns it as it ended.
	if again, err := m.Stop(t.Context(), j.ID, "x"); err != nil || again.Status != Stopped || again.LastError != "stopped with job_stop" {
		t.Errorf("second Stop = %+v, %v", again, err)
	}
}

func TestStopOfAnotherProcesssJobIsRefused(t *testing.T) {
	m, root := newManager(t)
	os.Mkdir(filepath.Join(root, ".agent"), 0o755)
	s := openStore(t, root)
	// Recorded by a live agent other than m: the test process stands in,
	// and m has no process for it.
	j, _, _ := s.Enqueue(t.Context(), spec("make serve"), Self(), time.Now())
	if _, err := m.Stop(t.Context(), j.ID, "x"); err != ErrOtherProcess {
		t.Errorf("Stop(other's job) = %v, want ErrOtherProcess", err)
	}
}

func TestCloseStopsRunningJobsAndRecordsWhy(t *testing.T) {
	m, root := newManager(t)
	j, _, _ := m.Start(t.Context(), spec("sleep 30"), process("sleep 30"))
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := openStore(t, root).Get(t.Context(), j.ID)
	if got.Status != Stopped || got.LastError != "the conversation ended" {
		t.Errorf("after Close: %s %q, want stopped because the conversation ended", got.Status, got.LastError)
	}
	if _, _, err := m.Start(t.Context(), spec("true"), process("true")); err == nil {
		t.Error("Start after Close succeeded")
	}
}

func TestJobOutputReadsOnFromItsCursorAndStopsTheNotice(t *testing.T) {
	m, _ := newManager(t)
	reg := tools.NewRegistry(Tools(m)...)
	j, _, _ := m.Start(t.Context(), spec("out"), process("echo one; sleep 0.3; echo two"))
	waitFor(t, "the first line", func() bool {
		res, _ := reg.Call(t.Context(), "job_output", map[string]string{"job_id": "1"})
		return strings.Contains(res.Content, "one")
	})
	res, _ := reg.Call(t.Context(), "job_output", map[string]string{"job_id": "1", "offset": "0"})
	next := metaOf(res, "next_offset")
	if res.IsError() || !strings.HasPrefix(res.Content, "one\n") || next != "4" || metaOf(res, "status") != "running" {
		t.Fatalf("job_output = %s %q next %s status %s", res.Message, res.Content, next, metaOf(res, "status"))
	}
	waitFor(t, "the job's end", func() bool { g, _ := m.Get(t.Context(), j.ID); return !g.Status.Active() })
	res, _ = reg.Call(t.Context(), "job_output", map[string]string{"job_id": "1", "offset": next})
	if res.Content != "two\n" || metaOf(res, "status") != "done" || metaOf(res, "exit_code") != "0" {
		t.Errorf("job_output from %s = %q status %s", next, res.Content, metaOf(res, "status"))
	}
	// The model read how it ended: no notice repeats it.
	if lines, _ := m.TakeNotices(); len(lines) != 0 {
		t.Errorf("notice after job_output saw the end: %q", lines)
	}
	res, _ = reg.Call(t.Context(), "job_output", map[string]string{"job_id": "9"})
	if res.Code != CodeNotFound {
		t.Errorf("job_output(9) = %s %s, want %s", res.Code, res.Message, CodeNotFound)
	}
	res, _ = reg.Call(t.Context(), "job_stop", map[string]string{"job_id": "9"})
	if res.Code != CodeNotFound {
		t.Errorf("job_stop(9) = %s %s, want %s", res.Code, res.Message, CodeNotFound)
	}
}

func TestNoticesAreBounded(t *testing.T) {
	long := strings.Repeat("x", 5000)
	line := noticeLine(Job{ID: 7, Label: strings.Repeat("cmd ", 100), Status: Done}, End{
		Summary: "exit code 0 after 1s", Tail: long + "\nlast line\n",
		Changed: []string{"a", "b", "c", "d", "e", "f", "g"},
	})
	if len(line) > 700 || strings.Contains(line, "\n") {
		t.Errorf("notice is %d bytes (or has line breaks): %q", len(line), line)
	}
	for _, want := range []string{"last line", "and 2 more", "job_output job_id=7 shows more"} {
		if !strings.Contains(line, want) {
			t.Errorf("notice lacks %q: %s", want, line)
		}
	}
}

func metaOf(res tools.Result, name string) string {
	for _, a := range res.Metadata {
		if a.Name == name {
			return a.Value
		}
	}
	return ""
}

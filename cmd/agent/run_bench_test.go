package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/internal/taskproject"
)

// BenchmarkRunProcess measures one-shot `agent run` as a whole process,
// the way a user or a script meets it: a fresh binary in a 31-file
// project, asked a question whose scripted model reads README.md and then
// answers, against a fake Gemini server on 127.0.0.1 with no model
// latency. It reports per run:
//
//	wall-ms      wall time from exec to exit
//	cpu-ms       user + system CPU time of the process
//	peak-rss-MB  peak resident set size (VmHWM), the largest of the runs
//	median-rss-MB  and its median
//	req1-bytes   the body of the first request to the provider
//	requests     requests made (2: nothing beyond the conversation)
//
// Targets: under 60 ms wall, under 40 MB peak RSS, first request under
// 10 KB. Run it with
//
//	go test ./cmd/agent -run '^$' -bench RunProcess -benchtime 20x
func BenchmarkRunProcess(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "agent")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // as make build
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	project := benchProject(b)
	srv := llmtest.NewGeminiServer(b)
	env := append(srv.Env(),
		"HOME="+b.TempDir(),
		"XDG_CONFIG_HOME="+filepath.Join(b.TempDir(), "config"),
		"PATH="+os.Getenv("PATH"),
		// Any request that is not to the fake server fails at once
		// instead of leaving the machine.
		"HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9", "NO_PROXY=127.0.0.1",
	)

	var wall, cpu []time.Duration
	var rss []int64
	var firstReq, requests int
	for b.Loop() {
		before := len(srv.Requests())
		srv.Push(
			llmtest.Say("I'll read it.\n", `<tool_call name="read_file" id="1"><file_path>README.md</file_path></tool_call>`),
			llmtest.Say("It is a small Go service that greets people."),
		)
		cmd := exec.Command(bin, "run", "what does this project do?")
		cmd.Dir = project
		cmd.Env = env
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		peak := watchPeakRSS(cmd.Process.Pid)
		err := cmd.Wait()
		elapsed := time.Since(start)
		if err != nil {
			b.Fatalf("agent run: %v\n%s", err, stderr.String())
		}
		if out := stdout.String(); !strings.Contains(out, "greets people") {
			b.Fatalf("unexpected answer %q", out)
		}
		st := cmd.ProcessState
		wall = append(wall, elapsed)
		cpu = append(cpu, st.UserTime()+st.SystemTime())
		rss = append(rss, peak())
		reqs := srv.Requests()[before:]
		requests = len(reqs)
		firstReq = len(reqs[0].Body)
		if !strings.Contains(reqs[1].LastUser(), "greets") && !strings.Contains(reqs[1].LastUser(), "README") {
			b.Fatalf("second request lacks the tool response: %q", reqs[1].LastUser())
		}
	}
	b.ReportMetric(ms(median(wall)), "wall-ms")
	b.ReportMetric(ms(median(cpu)), "cpu-ms")
	b.ReportMetric(float64(slices.Max(rss))/(1<<20), "peak-rss-MB")
	b.ReportMetric(float64(median(rss))/(1<<20), "median-rss-MB")
	b.ReportMetric(float64(firstReq), "req1-bytes")
	b.ReportMetric(float64(requests), "requests")
}

// benchProject writes the read-then-answer task's 31-file project
// (internal/taskproject, as the process bench and the budget test use).
func benchProject(b *testing.B) string {
	dir := b.TempDir()
	if err := taskproject.Write(dir); err != nil {
		b.Fatal(err)
	}
	return dir
}

// watchPeakRSS follows the peak resident set (VmHWM) of process pid
// until the returned function is called, which returns it in bytes. The
// rusage of a child is no measure here: os/exec starts children with
// vfork (CLONE_VM), and at exec the kernel carries the parent's high-water
// mark into the child's ru_maxrss, so every run would report at least the
// test binary's own peak. VmHWM is the agent's own; polled every 200 µs,
// it can miss only what the process adds in its last moments.
func watchPeakRSS(pid int) func() int64 {
	var peak atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	status := fmt.Sprintf("/proc/%d/status", pid)
	go func() {
		defer close(done)
		for {
			if data, err := os.ReadFile(status); err == nil {
				if _, rest, ok := strings.Cut(string(data), "VmHWM:"); ok {
					kb, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
					if n, err := strconv.ParseInt(kb, 10, 64); err == nil && n*1024 > peak.Load() {
						peak.Store(n * 1024)
					}
				}
			}
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	return func() int64 {
		close(stop)
		<-done
		return peak.Load()
	}
}

func median[T int64 | time.Duration](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

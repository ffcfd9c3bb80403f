package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/notes/notestest"
)

// BenchmarkNotesSearchProcess measures `agent notes search WORD` as a
// whole process on a generated store of 100,000 notes of about 1 KB
// (NOTES_BENCH_N notes for a quick look), for words in about 1% of the
// notes, 20 results with excerpts. It reports the median and 99th
// percentile wall time, the median CPU time and the peak RSS. Target: a
// median under 30 ms.
//
//	go test ./cmd/agent -run '^$' -bench NotesSearchProcess -benchtime 50x
func BenchmarkNotesSearchProcess(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "agent")
	if out, err := exec.Command("go", "build", "-ldflags", "-s -w", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("NOTES_BENCH_N")); err == nil && v > 0 {
		n = v
	}
	db := filepath.Join(b.TempDir(), "notes.db")
	s, err := notes.Open(context.Background(), db)
	if err != nil {
		b.Fatal(err)
	}
	c := notestest.NewCorpus(1)
	for done := 0; done < n; done += 5000 {
		batch := make([]notes.NewNote, 0, 5000)
		for range min(5000, n-done) {
			batch = append(batch, c.Next())
		}
		if _, err := s.Import(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
	}
	s.Close()
	words := c.Words(0.01, 10)
	var wall, cpu []time.Duration
	var peak int64
	i := 0
	for b.Loop() {
		cmd := exec.Command(bin, "notes", "--db", db, "search", words[i%len(words)])
		cmd.Env = []string{"HOME=" + b.TempDir(), "PATH=" + os.Getenv("PATH")}
		i++
		start := time.Now()
		out, err := cmd.Output()
		wall = append(wall, time.Since(start))
		if err != nil || len(out) == 0 {
			b.Fatalf("agent notes search: %v %s", err, out)
		}
		ps := cmd.ProcessState
		cpu = append(cpu, ps.UserTime()+ps.SystemTime())
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			peak = max(peak, ru.Maxrss)
		}
	}
	slices.Sort(wall)
	slices.Sort(cpu)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(wall[len(wall)/2]), "wall-p50-ms")
	b.ReportMetric(ms(wall[min(len(wall)-1, len(wall)*99/100)]), "wall-p99-ms")
	b.ReportMetric(ms(cpu[len(cpu)/2]), "cpu-p50-ms")
	b.ReportMetric(float64(peak)/1024, "peak-rss-MB")
}

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkServeStdio measures `agent serve --stdio` the way an MCP
// client meets it: a fresh process in a 31-file project, from exec to the
// answer of tools/list (after initialize). It reports per run:
//
//	list-ms       exec to the tools/list answer
//	peak-rss-MB   peak resident set size, the largest of the runs
//	list-bytes    the size of the tools/list answer
//
// Targets: under 30 ms to the list, under 40 MB peak. Run it with
//
//	go test ./cmd/agent -run '^$' -bench ServeStdio -benchtime 20x
func BenchmarkServeStdio(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "agent")
	build := exec.Command("go", "build", "-ldflags", "-s -w", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	project := benchProject(b)
	env := []string{"HOME=" + b.TempDir(), "XDG_CONFIG_HOME=" + filepath.Join(b.TempDir(), "config"), "PATH=" + os.Getenv("PATH")}
	const requests = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`
	var lists []time.Duration
	var rss []int64
	var size int
	for b.Loop() {
		cmd := exec.Command(bin, "serve", "--stdio")
		cmd.Dir, cmd.Env = project, env
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		start := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		if _, err := stdin.Write([]byte(requests)); err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), `{"jsonrpc":"2.0","id":2,`) {
				lists = append(lists, time.Since(start))
				size = len(sc.Bytes())
				break
			}
		}
		if !strings.Contains(sc.Text(), `"read_file"`) {
			b.Fatalf("no tools/list answer: %q %v", sc.Text(), sc.Err())
		}
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			b.Fatalf("serve: %v", err)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = append(rss, int64(ru.Maxrss)*1024)
		}
	}
	b.ReportMetric(ms(median(lists)), "list-ms")
	b.ReportMetric(float64(slices.Max(rss))/(1<<20), "peak-rss-MB")
	b.ReportMetric(float64(size), "list-bytes")
}

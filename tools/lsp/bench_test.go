package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// benchModule writes a Go module of 100 files in 10 packages, each file
// a few functions calling into the package below, and returns its
// folder and the file the benchmarks edit.
func benchModule(b *testing.B) (string, string) {
	files := map[string]string{"go.mod": "module example.com/bench\n\ngo 1.22\n"}
	for p := range 10 {
		for f := range 10 {
			var src strings.Builder
			fmt.Fprintf(&src, "package p%d\n\n", p)
			if p > 0 {
				fmt.Fprintf(&src, "import \"example.com/bench/p%d\"\n\n", p-1)
			}
			for fn := range 5 {
				fmt.Fprintf(&src, "// F%d_%d is number %d.\nfunc F%d_%d(n int) int {\n", f, fn, fn, f, fn)
				if p > 0 {
					fmt.Fprintf(&src, "\treturn p%d.F%d_%d(n) + %d\n}\n\n", p-1, f, fn, fn)
				} else {
					fmt.Fprintf(&src, "\treturn n * %d\n}\n\n", fn+1)
				}
			}
			files[fmt.Sprintf("p%d/f%d.go", p, f)] = src.String()
		}
	}
	root := writeFiles(b, files)
	return root, "p9/f0.go"
}

// BenchmarkCheckWarmGopls: how long an edit's response waits for its
// diagnostics (ns/op, wait-ms) with gopls warm on a 100-file module,
// against gopls's own time from the change to its first publish for the
// file (publish-ms), the edits alternating between breaking the file and
// fixing it. The difference is the check's quiet period (DefaultQuiet):
// the agent takes the diagnostics as complete once nothing new came for
// that long.
func BenchmarkCheckWarmGopls(b *testing.B) {
	gopls := needGopls(b)
	root, edited := benchModule(b)
	m := testManager(b, root, goSpec(gopls))
	m.o.Quiet, m.o.Wait = DefaultQuiet, time.Minute
	abs := filepath.Join(root, edited)
	good, _ := os.ReadFile(abs)
	bad := strings.Replace(string(good), "return p8.F0_0(n) + 0", "return p8.F0_0(n) + undefinedName", 1)
	if d := m.Check(b.Context(), []string{edited}, nil, nil); d == nil || d.Errors != 0 {
		b.Fatalf("warming up: %+v", d)
	}
	var publish time.Duration
	b.ResetTimer()
	for i := range b.N {
		text := string(good)
		if i%2 == 0 {
			text = bad
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		d := m.Check(b.Context(), []string{edited}, nil, nil)
		if d == nil || (d.Errors == 1) != (i%2 == 0) {
			b.Fatalf("edit %d: %+v", i, d)
		}
		publish += answered(m, abs)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "wait-ms")
	b.ReportMetric(float64(publish.Milliseconds())/float64(b.N), "publish-ms")
}

// answered is how long the server of abs took from its last change to
// its first publish for it.
func answered(m *Manager, abs string) time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, in := range m.insts {
		if in.srv == nil {
			continue
		}
		in.srv.mu.Lock()
		d := in.srv.docs[abs]
		in.srv.mu.Unlock()
		if d != nil && !d.answered.IsZero() {
			return d.answered.Sub(d.changed)
		}
	}
	return 0
}

// BenchmarkSessionMemory: the memory of a session of 40 edits, each
// checked, without a language server and with gopls on the 100-file
// module: the agent's heap after the session and its growth over the
// last 20 edits (flat: the documents and diagnostics kept are bounded),
// and gopls's own resident memory.
func BenchmarkSessionMemory(b *testing.B) {
	for _, withServer := range []bool{false, true} {
		name := "without-server"
		if withServer {
			name = "gopls"
		}
		b.Run(name, func(b *testing.B) {
			root, edited := benchModule(b)
			spec := Spec{Name: "none"}
			if withServer {
				spec = goSpec(needGopls(b))
			}
			for range b.N {
				m := testManager(b, root, spec)
				m.o.Quiet = 100 * time.Millisecond
				var mid, end runtime.MemStats
				for i := range 40 {
					abs := filepath.Join(root, fmt.Sprintf("p%d/f%d.go", 9-i%10, i%10))
					if i == 0 {
						abs = filepath.Join(root, edited)
					}
					src, _ := os.ReadFile(abs)
					os.WriteFile(abs, append(src, []byte(fmt.Sprintf("\nvar V%d = %d\n", i, i))...), 0o644)
					rel, _ := filepath.Rel(root, abs)
					m.Check(b.Context(), []string{rel}, nil, nil)
					if i == 19 {
						runtime.GC()
						runtime.ReadMemStats(&mid)
					}
				}
				runtime.GC()
				runtime.ReadMemStats(&end)
				b.ReportMetric(float64(end.HeapInuse)/(1<<20), "agent-heap-MB")
				b.ReportMetric((float64(end.HeapInuse)-float64(mid.HeapInuse))/(1<<20), "heap-growth-last-20-MB")
				b.ReportMetric(serverRSS(m)/(1<<20), "server-rss-MB")
				m.Close()
			}
		})
	}
}

// serverRSS is the resident memory of the manager's servers' processes,
// in bytes.
func serverRSS(m *Manager) float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	var total float64
	for _, in := range m.insts {
		if in.srv == nil || in.srv.cmd.Process == nil {
			continue
		}
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", in.srv.cmd.Process.Pid))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(status), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
				total += float64(kb) * 1024
			}
		}
	}
	return total
}

// Command bench measures whole `agent` processes the way a user meets
// them: resident memory and time of a read-then-answer `agent run` and of
// `agent version`, for one or more binaries side by side (a base build and
// the current one). The binaries run alternately, so load on the machine
// affects them alike, and medians are reported.
//
//	go run ./cmd/agent/bench [-runs 21] [label=]BINARY...
//
// The task: in a 31-file project, `agent run "what does this project
// do?"` against a fake Gemini server on 127.0.0.1 (the real streaming wire
// format, no model latency) that first asks for read_file of README.md and
// then answers. Just before the answer the server reads the agent's
// /proc/PID/smaps_rollup, which splits the resident memory into anonymous
// (heap, stacks) and file-backed (the binary's text and data) pages.
//
// It also times `agent serve --stdio` answering an MCP client's
// initialize and tools/list (left out for a binary without agent serve),
// and prints the size of the run's first request, failing when the last
// binary's passes the budget of 8,192 bytes.
//
// Max RSS is the kernel's peak resident set (getrusage, the figure
// `/usr/bin/time -f %M` prints).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agentcli/agent/internal/taskproject"
)

func main() {
	runs := flag.Int("runs", 21, "runs of each command per binary")
	flag.StringVar(&cacheMode, "cache", "faulted", "the binary's page cache before each round: faulted (dropped, then loaded by a run's page faults), read (dropped, then read whole), asis")
	flag.StringVar(&wrap, "wrap", "", "run each binary under this command (such as perf record); the figures are then the wrapper's")
	flag.StringVar(&pagesOut, "pages", "", "write the resident pages of the first binary's file mappings, before the answer of its last run, to this file")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: bench [-runs N] [label=]BINARY...")
		os.Exit(2)
	}
	if err := run(*runs, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// pagesOut names the -pages file; wrap is the -wrap command; cacheMode
// is -cache.
var pagesOut, wrap, cacheMode string

// sample is one process's figures.
type sample struct {
	wall, cpu    time.Duration
	maxRSS       int64 // KiB
	anon, file   int64 // KiB, from smaps_rollup before the answer
	haveRollup   bool
	out          string // what the process printed
	firstRequest int    // bytes of its first request to the model
}

type target struct {
	label, path   string
	run, ver, mcp []sample
	noServe       bool // the binary has no agent serve (an older build)
	firstRequest  int  // bytes of the run's first request to the model
}

// serveInput is what an MCP client sends `agent serve --stdio` to list
// its tools; the server exits when its input ends.
const serveInput = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`

func run(runs int, args []string) error {
	var bins []*target
	for _, a := range args {
		label, path, ok := strings.Cut(a, "=")
		if !ok {
			label, path = a, a
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return err
		}
		bins = append(bins, &target{label: label, path: abs})
	}
	tmp, err := os.MkdirTemp("", "agent-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	project := filepath.Join(tmp, "project")
	if err := taskproject.Write(project); err != nil {
		return err
	}
	srv := newServer()
	defer srv.Close()
	env := []string{
		"GOOGLE_GEMINI_BASE_URL=" + srv.URL, "GEMINI_API_KEY=bench-key",
		"HOME=" + filepath.Join(tmp, "home"),
		"XDG_CONFIG_HOME=" + filepath.Join(tmp, "config"),
		"PATH=" + os.Getenv("PATH"),
		// Any request that is not to the fake server fails at once.
		"HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9", "NO_PROXY=127.0.0.1",
	}
	if err := os.MkdirAll(filepath.Join(tmp, "home"), 0o755); err != nil {
		return err
	}
	for i := range runs {
		for _, b := range bins {
			if err := prepareCache(b.path, cacheMode); err != nil {
				return err
			}
			// One unmeasured run of each command after the cache is set.
			if _, err := srv.measure(b.path, project, env, "run", "what does this project do?"); err != nil {
				return fmt.Errorf("%s run: %w", b.label, err)
			}
			if _, err := srv.measure(b.path, project, env, "version"); err != nil {
				return fmt.Errorf("%s version: %w", b.label, err)
			}
			srv.dumpPages = pagesOut != "" && b == bins[0] && i == runs-1
			s, err := srv.measure(b.path, project, env, "run", "what does this project do?")
			srv.dumpPages = false
			if err != nil {
				return fmt.Errorf("%s run: %w", b.label, err)
			}
			v, err := srv.measure(b.path, project, env, "version")
			if err != nil {
				return fmt.Errorf("%s version: %w", b.label, err)
			}
			b.run = append(b.run, s)
			b.ver = append(b.ver, v)
			b.firstRequest = s.firstRequest
			if !b.noServe {
				m, err := srv.measureWith(b.path, project, env, serveInput, "serve", "--stdio")
				switch {
				case err != nil && i == 0:
					b.noServe = true // e.g. a base from before agent serve
				case err != nil:
					return fmt.Errorf("%s serve: %w", b.label, err)
				case !strings.Contains(m.out, `"tools":[`):
					return fmt.Errorf("%s serve: no tools/list answer: %q", b.label, m.out)
				default:
					b.mcp = append(b.mcp, m)
				}
			}
		}
	}
	fmt.Printf("%d runs each, page cache %q; medians (MB = 2^20 bytes)\n", runs, cacheMode)
	fmt.Printf("%-10s %-8s %9s %7s %9s %9s %9s %9s\n", "binary", "command", "maxRSS", "vs[0]", "anon", "file", "wall-ms", "cpu-ms")
	for _, b := range bins {
		report(b.label, "run", b.run, bins[0].run)
		report(b.label, "version", b.ver, bins[0].ver)
		if len(b.mcp) > 0 {
			ref := bins[0].mcp
			if len(ref) == 0 {
				ref = b.mcp
			}
			report(b.label, "serve", b.mcp, ref)
		}
	}
	fmt.Println("serve: `agent serve --stdio` answering initialize and tools/list, until its input ends.")
	for _, b := range bins {
		fmt.Printf("%s: the run's first request to the model is %d bytes (budget %d)\n", b.label, b.firstRequest, firstRequestBudget)
	}
	fmt.Println("maxRSS: peak resident set (getrusage, as /usr/bin/time -f %M); anon and file:")
	fmt.Println("anonymous and file-backed resident memory from smaps_rollup just before the answer.")
	// os/exec starts children with vfork (CLONE_VM), and at exec the
	// kernel carries the parent's high-water mark into the child's
	// ru_maxrss: the figures are the children's only while this process
	// stays smaller than they are.
	if own := ownPeakKiB(); own > 0 {
		for _, b := range bins {
			if m := median(b.ver, maxRSS); float64(own)/1024 >= m {
				return fmt.Errorf("this process's own peak RSS (%.1f MB) is not below %s's (%.1f MB): the figures are not the agent's", float64(own)/1024, b.label, m)
			}
		}
	}
	if last := bins[len(bins)-1]; last.firstRequest > firstRequestBudget {
		return fmt.Errorf("%s's first request is over its budget of %d bytes (agent prompt --stats shows where they go)", last.label, firstRequestBudget)
	}
	return nil
}

// firstRequestBudget is the most bytes the read-then-answer task's first
// request may take (cmd/agent's TestFirstRequestBudget holds it too).
const firstRequestBudget = 8192

// ownPeakKiB is this process's peak resident set (VmHWM), 0 if unknown.
func ownPeakKiB() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	_, rest, _ := strings.Cut(string(data), "VmHWM:")
	kb, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	n, _ := strconv.ParseInt(kb, 10, 64)
	return n
}

// median returns the median of f over ss.
func median(ss []sample, f func(sample) float64) float64 {
	var xs []float64
	for _, s := range ss {
		xs = append(xs, f(s))
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}

func maxRSS(s sample) float64 { return float64(s.maxRSS) / 1024 }

// report prints one line of medians, the peak RSS also relative to the
// first binary's (ref).
func report(label, cmd string, ss, ref []sample) {
	anon, file := "-", "-"
	if ss[0].haveRollup {
		anon = fmt.Sprintf("%.1f", median(ss, func(s sample) float64 { return float64(s.anon) / 1024 }))
		file = fmt.Sprintf("%.1f", median(ss, func(s sample) float64 { return float64(s.file) / 1024 }))
	}
	rss := median(ss, maxRSS)
	fmt.Printf("%-10s %-8s %9.1f %+6.1f%% %9s %9s %9.1f %9.1f\n", label, cmd,
		rss, 100*(rss/median(ref, maxRSS)-1), anon, file,
		median(ss, func(s sample) float64 { return float64(s.wall.Microseconds()) / 1000 }),
		median(ss, func(s sample) float64 { return float64(s.cpu.Microseconds()) / 1000 }))
}

// server is a fake Gemini streaming endpoint. A request whose body does not
// yet hold the README's text gets a read_file call; one that does gets the
// answer, after the server has read the waiting agent's smaps_rollup.
type server struct {
	*httptest.Server
	mu  sync.Mutex
	pid int
	// dumpPages asks for the resident pages to be written to pagesOut.
	dumpPages bool
	rollup    sample
	first     int // bytes of the running process's first request
}

func newServer() *server {
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

func (s *server) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	if s.first == 0 {
		s.first = len(body)
	}
	s.mu.Unlock()
	text := "I'll read it.\n<tool_call name=\"read_file\" id=\"1\"><file_path>README.md</file_path></tool_call>"
	if strings.Contains(string(body), "greets people over HTTP") {
		text = "It is a small Go service that greets people."
		s.mu.Lock()
		s.rollup.anon, s.rollup.file, s.rollup.haveRollup = readRollup(s.pid)
		if s.dumpPages {
			if err := dumpPages(s.pid, pagesOut); err != nil {
				fmt.Fprintln(os.Stderr, "bench: pages:", err)
			}
		}
		s.mu.Unlock()
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprintf(w, "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":%s}]},\"index\":0}],\"modelVersion\":\"bench\"}\r\n\r\n", strconv.Quote(text))
	fmt.Fprint(w, "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"\"}]},\"index\":0,\"finishReason\":\"STOP\"}],"+
		"\"usageMetadata\":{\"promptTokenCount\":10,\"candidatesTokenCount\":5,\"totalTokenCount\":15},\"modelVersion\":\"bench\"}\r\n\r\n")
}

// readRollup returns the anonymous and file-backed resident KiB of pid.
func readRollup(pid int) (anon, file int64, ok bool) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0, 0, false
	}
	defer f.Close()
	var rss int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		n, _ := strconv.ParseInt(fields[1], 10, 64)
		switch fields[0] {
		case "Rss:":
			rss = n
		case "Anonymous:":
			anon = n
		}
	}
	return anon, rss - anon, rss > 0
}

// firstRequest is the size of the running process's first request.
func (s *server) firstRequest() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.first
}

// measure runs bin with args in dir and returns its figures.
func (s *server) measure(bin, dir string, env []string, args ...string) (sample, error) {
	return s.measureWith(bin, dir, env, "", args...)
}

// measureWith is measure with stdin as the process's input; the sample
// keeps its output.
func (s *server) measureWith(bin, dir string, env []string, stdin string, args ...string) (sample, error) {
	cmd := exec.Command(bin, args...)
	if wrap != "" {
		w := strings.Fields(wrap)
		cmd = exec.Command(w[0], append(append(w[1:], bin), args...)...)
	}
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	var out, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, err
	}
	s.mu.Lock()
	s.pid, s.rollup, s.first = cmd.Process.Pid, sample{}, 0
	s.mu.Unlock()
	err := cmd.Wait()
	wall := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%v\n%s", err, stderr.String())
	}
	if args[0] == "run" && !strings.Contains(out.String(), "greets people") {
		return sample{}, fmt.Errorf("unexpected answer %q\n%s", out.String(), stderr.String())
	}
	st := cmd.ProcessState
	s.mu.Lock()
	res := s.rollup
	s.mu.Unlock()
	res.wall = wall
	res.out = out.String()
	res.firstRequest = s.firstRequest()
	res.cpu = st.UserTime() + st.SystemTime()
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		res.maxRSS = ru.Maxrss
	}
	return res, nil
}

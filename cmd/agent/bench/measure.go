package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agentcli/agent/internal/taskproject"
)

// sample is one process's figures.
type sample struct {
	wall, cpu    time.Duration
	maxRSS       int64 // KiB
	faults       int64 // page faults, minor and major: the same under any load
	anon, file   int64 // KiB, from smaps_rollup before the answer
	haveRollup   bool
	out          string // what the process printed
	firstRequest int    // bytes of its first request to the model
}

// harness is what the commands run in: the task's project, a home of
// their own, the fake model server, and a tmux server for the chat.
type harness struct {
	*server
	project string
	env     []string
	socket  string // tmux -L name
	panes   int
}

func newHarness(tmp string) (*harness, error) {
	project := filepath.Join(tmp, "project")
	if err := taskproject.Write(project); err != nil {
		return nil, err
	}
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, err
	}
	srv := newServer()
	return &harness{
		server:  srv,
		project: project,
		socket:  fmt.Sprintf("agent-bench-%d", os.Getpid()),
		env: []string{
			"GOOGLE_GEMINI_BASE_URL=" + srv.URL, "GEMINI_API_KEY=bench-key",
			"HOME=" + home,
			"XDG_CONFIG_HOME=" + filepath.Join(tmp, "config"),
			"PATH=" + os.Getenv("PATH"),
			"TERM=xterm-256color",
			// Any request that is not to the fake server fails at once.
			"HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9", "NO_PROXY=127.0.0.1",
		},
	}, nil
}

// Close stops the fake server and the tmux server.
func (h *harness) Close() {
	h.server.Close()
	exec.Command("tmux", "-L", h.socket, "kill-server").Run()
}

// measure runs one command of bin and returns its figures.
func (h *harness) measure(bin, cmd string) (sample, error) {
	switch cmd {
	case "version":
		return h.process(bin, "", "version")
	case "run":
		return h.process(bin, "", "run", runTask)
	case "serve":
		s, err := h.process(bin, serveInput, "serve", "--stdio")
		if err == nil && !strings.Contains(s.out, `"tools":[`) {
			err = fmt.Errorf("no tools/list answer: %q", s.out)
		}
		return s, err
	case "chat":
		return h.chat(bin)
	}
	return sample{}, fmt.Errorf("unknown command %q", cmd)
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

// process runs bin with args in the project, stdin as its input, and
// returns its figures and its output.
func (h *harness) process(bin, stdin string, args ...string) (sample, error) {
	s := h.server
	cmd := exec.Command(bin, args...)
	if wrap != "" {
		w := strings.Fields(wrap)
		cmd = exec.Command(w[0], append(append(w[1:], bin), args...)...)
	}
	cmd.Dir = h.project
	cmd.Env = h.env
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
	res.firstRequest = s.first
	s.mu.Unlock()
	res.wall = wall
	res.out = out.String()
	res.cpu = st.UserTime() + st.SystemTime()
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		res.maxRSS = ru.Maxrss
		res.faults = ru.Minflt + ru.Majflt
	}
	return res, nil
}

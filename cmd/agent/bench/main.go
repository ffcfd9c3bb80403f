// Command bench measures whole `agent` processes the way a user meets
// them, for one or more binaries side by side (a base build and the
// current one): the resident memory and time of
//
//	version  `agent version`
//	run      a read-then-answer `agent run`
//	serve    `agent serve --stdio` answering an MCP client's initialize
//	         and tools/list (left out for a binary without agent serve)
//	chat     the chat in a tmux pane of its own (left out without tmux):
//	         launch to a ready prompt (tmux's own time included), and
//	         the resident memory once idle for a second
//
// each cold (the binary's pages dropped from the page cache just before)
// and warm (once every command has run since: the cache holds what each
// touched, as it does for a user after a while), and the size of each
// binary.
//
//	go run ./cmd/agent/bench [-runs 15] [label=]BINARY...
//
// The binaries run alternately, command by command, so that load on the
// machine affects them alike, and medians are reported. With two
// binaries or more, the first is the base: the last is checked against
// it by the start-up rule (within 10% or 1 ms of the base's wall time,
// whichever is larger, and within 10% of its peak memory, warm; the
// chat's memory only), and against the budgets; the command fails when
// either is broken.
//
// The task: in a 31-file project, `agent run "what does this project
// do?"` against a fake Gemini server on 127.0.0.1 (the real streaming wire
// format, no model latency) that first asks for read_file of README.md and
// then answers. Just before the answer the server reads the agent's
// /proc/PID/smaps_rollup, which splits the resident memory into anonymous
// (heap, stacks) and file-backed (the binary's text and data) pages. The
// size of the run's first request is printed too, and it fails above
// the budget of 8,192 bytes.
//
// Max RSS is the kernel's peak resident set (getrusage, the figure
// `/usr/bin/time -f %M` prints); the chat's is its VmRSS once idle.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	runs := flag.Int("runs", 15, "rounds: runs of each command per binary, cold and warm")
	flag.StringVar(&cacheMode, "cache", "faulted", "the binary's page cache before the warm runs: faulted (what runs of every command loaded), read (the whole file read)")
	flag.StringVar(&wrap, "wrap", "", "run each binary under this command (such as perf record); the figures are then the wrapper's")
	only := flag.String("commands", strings.Join(commands, ","), "the commands to measure, of "+strings.Join(commands, ","))
	flag.StringVar(&pagesOut, "pages", "", "write the resident pages of the first binary's file mappings, before the answer of its last warm run, to this file")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: bench [-runs N] [label=]BINARY...")
		os.Exit(2)
	}
	picked, err := pick(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	commands = picked
	if err := run(*runs, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// pagesOut names the -pages file; wrap is the -wrap command; cacheMode
// is -cache.
var pagesOut, wrap, cacheMode string

// The commands, in the order they run and are reported.
var commands = []string{"version", "run", "serve", "chat"}

// pick is the commands a -commands list names, in their order.
func pick(list string) ([]string, error) {
	names := strings.Split(list, ",")
	for _, n := range names {
		if !slices.Contains(commands, n) {
			return nil, fmt.Errorf("unknown command %q: use some of %s", n, strings.Join(commands, ","))
		}
	}
	return slices.DeleteFunc(slices.Clone(commands), func(c string) bool { return !slices.Contains(names, c) }), nil
}

// target is one binary and its samples.
type target struct {
	label, path  string
	size         int64               // bytes
	samples      map[string][]sample // by command and "cold" or "warm"
	skip         map[string]string   // commands left out, and why
	firstRequest int                 // bytes of the run's first request to the model
}

func key(cmd string, cold bool) string {
	if cold {
		return cmd + "/cold"
	}
	return cmd + "/warm"
}

// runTask is the question of the read-then-answer task.
const runTask = "what does this project do?"

// serveInput is what an MCP client sends `agent serve --stdio` to list
// its tools; the server exits when its input ends.
const serveInput = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`

func run(runs int, args []string) error {
	if cacheMode != "faulted" && cacheMode != "read" {
		return fmt.Errorf("unknown -cache %q: use faulted or read", cacheMode)
	}
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
		fi, err := os.Stat(abs)
		if err != nil {
			return err
		}
		bins = append(bins, &target{label: label, path: abs, size: fi.Size(), samples: map[string][]sample{}, skip: map[string]string{}})
	}
	tmp, err := os.MkdirTemp("", "agent-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	h, err := newHarness(tmp)
	if err != nil {
		return err
	}
	defer h.Close()
	if _, err := exec.LookPath("tmux"); err != nil {
		for _, b := range bins {
			b.skip["chat"] = "tmux is not installed"
		}
	}
	load := loadAverage()
	for i := range runs {
		// Cold: each command right after its binary's pages left the
		// page cache.
		for _, cmd := range commands {
			for _, b := range bins {
				if err := prepareCache(b.path, "drop"); err != nil {
					return err
				}
				if err := measureOne(h, b, cmd, true, i == 0); err != nil {
					return err
				}
			}
		}
		// Warm: every command (but the chat, whose pages its cold run
		// left) once more unmeasured, or the whole file read; then each
		// measured.
		for _, b := range bins {
			if err := prepareCache(b.path, cacheMode); err != nil {
				return err
			}
			for _, cmd := range commands {
				if cacheMode == "faulted" && cmd != "chat" && b.skip[cmd] == "" {
					if _, err := h.measure(b.path, cmd); err != nil {
						return fmt.Errorf("%s %s: %w", b.label, cmd, err)
					}
				}
			}
		}
		for _, cmd := range commands {
			for _, b := range bins {
				h.dumpPages = pagesOut != "" && b == bins[0] && i == runs-1 && cmd == "run"
				if err := measureOne(h, b, cmd, false, false); err != nil {
					return err
				}
			}
		}
	}
	return report(bins, runs, load)
}

// measureOne runs cmd of b and keeps the sample as cold or warm. A
// binary without agent serve (an older base) is left out of serve when
// its first try fails.
func measureOne(h *harness, b *target, cmd string, cold, first bool) error {
	if b.skip[cmd] != "" {
		return nil
	}
	s, err := h.measure(b.path, cmd)
	if err != nil && cmd == "serve" && first {
		b.skip[cmd] = "no agent serve in this binary"
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", b.label, cmd, err)
	}
	if cmd == "run" {
		b.firstRequest = s.firstRequest
	}
	b.samples[key(cmd, cold)] = append(b.samples[key(cmd, cold)], s)
	return nil
}

// loadAverage is /proc/loadavg's first three figures, for the report.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(data))[:3], " ")
}

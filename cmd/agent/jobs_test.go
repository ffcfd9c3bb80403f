package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestPromptStatsCountBackgroundJobs checks the bytes --stats gives for
// background jobs against the catalog itself: the job tools' entries and
// run_command's background line.
func TestPromptStatsCountBackgroundJobs(t *testing.T) {
	dir := promptProject(t)
	text, errOut, code := runPromptCmd(t, "--dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := 0
	for _, name := range []string{"job_output", "job_stop"} {
		// On-demand tools: named with one line each.
		line := regexp.MustCompile(`(?m)^- ` + name + `: .*\n`).FindString(text)
		if line == "" {
			t.Fatalf("the catalog does not name %s:\n%s", name, text)
		}
		want += len(line)
	}
	line := regexp.MustCompile(`(?m)^- background \(boolean\):.*\n`).FindString(text)
	if line == "" {
		t.Fatalf("run_command has no background line:\n%s", text)
	}
	want += len(line)

	stats, errOut, code := runPromptCmd(t, "--dir", dir, "--stats")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := regexp.MustCompile(`(?m)^of the tools, background jobs: ([0-9,]+) bytes$`).FindStringSubmatch(stats)
	if m == nil {
		t.Fatalf("--stats does not count background jobs:\n%s", stats)
	}
	got, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	if got != want {
		t.Errorf("--stats says background jobs take %d bytes; the catalog's entries take %d", got, want)
	}
	if got > 400 {
		t.Errorf("background jobs take %d bytes of every prompt; keep them under 400", got)
	}
}

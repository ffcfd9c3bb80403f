package main

import (
	"os"
	"runtime/debug"
	"testing"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// openFiles counts this process's open file descriptors.
func openFiles(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd here")
	}
	return len(ents)
}

// TestRunClosesWhatItOpens: a run that writes (so that its summary reads
// the backups) leaves no file open behind it: the project's sandbox, the
// session, the audit log and the backups are closed with the
// conversation.
func TestRunClosesWhatItOpens(t *testing.T) {
	write := `<tool_call name="write_file" id="1"><operation_type>create</operation_type><file_path>a.md</file_path><content>hi</content></tool_call>`
	runWithUserConfig(t, llmtest.Texts(write, "done"), "", "--yes", "warm up")
	// An os.Root left open is closed when the collector finds it: no
	// collection here, so that only Close can close it.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	before := openFiles(t)
	for range 3 {
		if errOut, code := runWithUserConfig(t, llmtest.Texts(write, "done"), "", "--yes", "write it"); code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
	}
	if after := openFiles(t); after > before {
		t.Errorf("%d files open after three runs, %d before", after, before)
	}
}

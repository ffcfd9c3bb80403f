package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mainLineLimit is the most lines of non-test code package main may
// hold: the commands are faces (flags, help, exit codes, wiring), and
// what they show lives in the views (ARCHITECTURE.md, "Where a change
// goes"). It was 3000 until agent init and agent sessions export came:
// two faces whose work is the conversation's (PrepareInit,
// ExportSession) and the views' (run.CanApprove), their flags and help
// the hundred lines more; the plan and question flags of run fifty, agent lsp fifty more.
const mainLineLimit = 3200

// TestFacesStayThin keeps package main under mainLineLimit lines of
// non-test code.
func TestFacesStayThin(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		total += bytes.Count(b, []byte("\n"))
	}
	if total == 0 {
		t.Fatal("no source files found")
	}
	if total >= mainLineLimit {
		t.Errorf("package main has %d lines of non-test code, the limit is %d: put a command's output in its view and what it needs in the conversation (ARCHITECTURE.md)", total, mainLineLimit)
	}
}

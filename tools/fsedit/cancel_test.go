package fsedit

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// TestCancelledWriteNeverLands runs write_file directly with a context that
// is already done, as the registry's goroutine would after a TOOL_TIMEOUT
// was reported: the file must be left as it was, with no temp file.
func TestCancelledWriteNeverLands(t *testing.T) {
	p := newProject(t, map[string]string{"a.txt": "one\ntwo\n"})
	p.read("a.txt")
	tool, ok := p.reg.Lookup("write_file")
	if !ok {
		t.Fatal("no write_file tool")
	}
	ctx, cancel := context.WithCancel(p.ctx)
	cancel()
	for _, raw := range []map[string]string{
		{"operation_type": "rewrite", "file_path": "a.txt", "content": "changed\n"},
		{"operation_type": "partial", "file_path": "a.txt", "content": "changed\n", "start_line": "1", "end_line": "1"},
		{"operation_type": "create", "file_path": "new.txt", "content": "x\n"},
	} {
		in, res := tools.Validate(tool.Definition(), raw)
		if res != nil {
			t.Fatalf("validate %v: %s", raw, res.Message)
		}
		if _, err := tool.Execute(ctx, in); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: err = %v, want context.Canceled", raw["operation_type"], err)
		}
	}
	if got := p.content("a.txt"); got != "one\ntwo\n" {
		t.Errorf("a.txt = %q after cancelled writes", got)
	}
	if _, err := os.Stat(filepath.Join(p.dir, "new.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("new.txt exists after a cancelled create (%v)", err)
	}
	if tf := tempFiles(t, p.dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
}

// countingWriter cancels the call once some bytes were written, as Ctrl-C
// in the middle of a large write would.
type countingWriter struct {
	w      io.Writer
	n      int
	after  int
	cancel context.CancelFunc
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += len(p)
	if c.n > c.after {
		c.cancel()
	}
	return c.w.Write(p)
}

// TestCancelStopsALargeWrite: a call cancelled in the middle of writing a
// large file stops within a buffer or so, leaves the file as it was and no
// temp file.
func TestCancelStopsALargeWrite(t *testing.T) {
	big := strings.Repeat("a line of some length for the test file\n", 200000) // 8 MB
	p := newProject(t, map[string]string{"big.txt": big})
	wantOK(t, p.read("big.txt", "start_line", "100000", "end_line", "100000"))
	ctx, cancel := context.WithCancel(p.ctx)
	defer cancel()
	cw := &countingWriter{after: 256 << 10, cancel: cancel}
	sandbox.TestHookWrap = func(w io.Writer) io.Writer { cw.w = w; return cw }
	defer func() { sandbox.TestHookWrap = nil }()
	tool, _ := p.reg.Lookup("write_file")
	in, res := tools.Validate(tool.Definition(), map[string]string{
		"operation_type": "partial", "file_path": "big.txt", "content": "changed\n", "start_line": "100000", "end_line": "100000"})
	if res != nil {
		t.Fatal(res.Message)
	}
	if _, err := tool.Execute(ctx, in); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled write: err = %v, want context.Canceled", err)
	}
	if cw.n > 4<<20 {
		t.Errorf("wrote %d bytes after the cancellation at 256 KiB; it should stop within a buffer", cw.n)
	}
	if p.content("big.txt") != big {
		t.Error("big.txt changed")
	}
	if tf := tempFiles(t, p.dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
}

package fsedit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentcli/agent/tools"
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

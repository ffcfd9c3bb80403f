package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBackupsUndoRestore(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.md"), []byte("one\n"), 0o644)
	file := func() string {
		b, err := os.ReadFile(filepath.Join(dir, "a.md"))
		if err != nil {
			return "<missing>"
		}
		return string(b)
	}

	out, _, code := runAgent(t, "backups", "--dir", dir)
	if code != 0 || !strings.Contains(out, "no backups yet") {
		t.Fatalf("empty backups: exit %d, %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, ".agent")); err == nil {
		t.Error("listing created .agent in a project without backups")
	}
	out, _, code = runAgent(t, "undo", "--dir", dir)
	if code != 0 || !strings.Contains(out, "nothing to undo") {
		t.Fatalf("empty undo: exit %d, %q", code, out)
	}

	// Two change sets: a rewrite, then a create.
	if _, errOut, code := runAgent(t, "tool-call", "--dir", dir, "read_file", "file_path=a.md", "+",
		"write_file", "operation_type=rewrite", "file_path=a.md", "content=two\n"); code != 0 {
		t.Fatalf("tool-call: exit %d %s", code, errOut)
	}
	if _, errOut, code := runAgent(t, "tool-call", "--dir", dir, "write_file", "operation_type=create", "file_path=b.md", "content=bee\n"); code != 0 {
		t.Fatalf("tool-call: exit %d %s", code, errOut)
	}
	out, _, _ = runAgent(t, "backups", "--dir", dir, "--json")
	var sets []struct {
		ID    string   `json:"id"`
		Files []string `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &sets); err != nil || len(sets) != 2 {
		t.Fatalf("backups --json = %s (%v)", out, err)
	}
	first := sets[0].ID
	out, _, _ = runAgent(t, "backups", "--dir", dir)
	if !strings.Contains(out, first) || !strings.Contains(out, "b.md") {
		t.Errorf("backups listing:\n%s", out)
	}

	out, _, code = runAgent(t, "undo", "--dir", dir)
	if code != 0 || !strings.Contains(out, "removed") {
		t.Fatalf("undo: exit %d %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.md")); err == nil {
		t.Error("undo did not remove the created file")
	}
	out, errOut, code := runAgent(t, "backups", "restore", first, "--dir", dir)
	if file() != "one\n" {
		t.Fatalf("restore %s: exit %d %q %q; a.md = %q", first, code, out, errOut, file())
	}

	// A user edit after the agent's write blocks an undo unless --force.
	runAgent(t, "tool-call", "--dir", dir, "read_file", "file_path=a.md", "+", "write_file", "operation_type=rewrite", "file_path=a.md", "content=three\n")
	os.WriteFile(filepath.Join(dir, "a.md"), []byte("user\n"), 0o644)
	_, errOut, code = runAgent(t, "undo", "--dir", dir)
	if code != exitFailed || !strings.Contains(errOut, "--force") || file() != "user\n" {
		t.Fatalf("undo over a user edit: exit %d %q, a.md %q", code, errOut, file())
	}
	if _, _, code = runAgent(t, "undo", "--dir", dir, "--force"); code != 0 || file() != "one\n" {
		t.Fatalf("forced undo: exit %d, a.md %q", code, file())
	}

	_, errOut, code = runAgent(t, "backups", "restore", "no-such-id", "--dir", dir)
	if code != exitUsage || !strings.Contains(errOut, "agent backups") {
		t.Errorf("unknown id: exit %d %q", code, errOut)
	}
}

// TestListingHidesWhatTheTreeHides checks the file tools use the project's
// gitignore rules (package prompt's), including a deeper "!" rule that
// brings back what a higher .gitignore hides, as git does.
func TestListingHidesWhatTheTreeHides(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		".gitignore":     "*.log\n",
		"sub/.gitignore": "!keep.log\n",
		"sub/keep.log":   "kept\n",
		"sub/drop.log":   "dropped\n",
		"sub/a.md":       "a\n",
	} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	out, errOut, code := runAgent(t, "tool-call", "--dir", dir, "list_directory", "depth=3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "keep.log") || strings.Contains(out, "drop.log") || !strings.Contains(out, "a.md") {
		t.Errorf("listing:\n%s", out)
	}
}

package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditRefusesLinks: an audit log that is a symlink (a cloned
// repository's link to the user's ~/.bashrc), or in a linked .agent, is
// refused with an error saying so, and nothing is appended to the target.
func TestAuditRefusesLinks(t *testing.T) {
	for _, link := range []string{AuditFile, ".agent"} {
		t.Run(link, func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			target := filepath.Join(outside, "bashrc")
			if link == ".agent" {
				target = outside
			}
			os.WriteFile(filepath.Join(outside, "bashrc"), []byte("# rc\n"), 0o644)
			os.MkdirAll(filepath.Join(root, ".agent"), 0o755)
			if link == ".agent" {
				os.Remove(filepath.Join(root, ".agent"))
			}
			if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
				t.Fatal(err)
			}
			a := NewAudit(root)
			defer a.Close()
			err := a.Record(AuditEntry{Tool: "read_file", Params: map[string]string{"file_path": "$(touch pwned)"}})
			if err == nil || !strings.Contains(err.Error(), "is a symlink") {
				t.Fatalf("Record = %v, want a symlink refused", err)
			}
			if b, _ := os.ReadFile(filepath.Join(outside, "bashrc")); string(b) != "# rc\n" {
				t.Errorf("the link's target was written: %q", b)
			}
			if _, err := os.Stat(filepath.Join(outside, "audit.jsonl")); err == nil {
				t.Error("an audit log was created in the linked folder")
			}
		})
	}
}

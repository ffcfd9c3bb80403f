package backup

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadKey: the first load makes a private key file, the next ones
// read the same key, and a file that is not a key is refused, not
// replaced.
func TestLoadKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "agent")
	k1, err := LoadKey(dir)
	if err != nil || len(k1) != 32 {
		t.Fatalf("LoadKey = %x, %v", k1, err)
	}
	fi, err := os.Stat(filepath.Join(dir, KeyFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v, %v; want mode 0600", fi, err)
	}
	if k2, err := LoadKey(dir); err != nil || !bytes.Equal(k1, k2) {
		t.Errorf("second LoadKey = %x, %v; want the same key", k2, err)
	}
	os.WriteFile(filepath.Join(dir, KeyFile), []byte("not a key\n"), 0o600)
	if _, err := LoadKey(dir); err == nil || !strings.Contains(err.Error(), "is not a backup signing key") {
		t.Errorf("LoadKey of a bad file = %v", err)
	}
	if _, err := LoadKey(""); err == nil {
		t.Error("LoadKey with no folder did not fail")
	}
}

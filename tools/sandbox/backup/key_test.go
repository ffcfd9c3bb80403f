package backup

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadKeyMakesOneAndKeepsIt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "agent")
	k1, err := LoadKey(dir)
	if err != nil || len(k1) != 32 {
		t.Fatalf("LoadKey = %x, %v; want 32 new bytes", k1, err)
	}
	if fi, err := os.Stat(filepath.Join(dir, KeyFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file: %v, %v; want mode 0600", fi, err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("folder: %v, %v; want mode 0700", fi, err)
	}
	k2, err := LoadKey(dir)
	if err != nil || !bytes.Equal(k1, k2) {
		t.Errorf("second LoadKey = %x, %v; want the same key", k2, err)
	}
}

func TestLoadKeyRefusesABadFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, KeyFile), []byte("not hex\n"), 0o600)
	if _, err := LoadKey(dir); err == nil || !strings.Contains(err.Error(), "is not a backup signing key") {
		t.Errorf("LoadKey of a bad file = %v, want it named as no key", err)
	}
	if _, err := LoadKey(""); err == nil {
		t.Error("LoadKey with no folder succeeded")
	}
}

func TestProjectKeyBindsTheFolder(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	a, b := ProjectKey(key, "/home/u/a"), ProjectKey(key, "/home/u/b")
	if len(a) != 32 || bytes.Equal(a, b) || bytes.Equal(a, key) {
		t.Errorf("ProjectKey: a=%x b=%x; want two different keys, neither the user's", a, b)
	}
	if !bytes.Equal(a, ProjectKey(key, "/home/u/a")) {
		t.Error("ProjectKey is not stable")
	}
	if ProjectKey(nil, "/home/u/a") != nil {
		t.Error("an empty key bound to a folder verifies something")
	}
}

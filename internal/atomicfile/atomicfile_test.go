package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func TestWriteFileReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFile(path, 0o600, func(w io.Writer) error { io.WriteString(w, "half"); return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("WriteFile with a failing writer = %v, want its error", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("file = %q after a failed write, want the old content", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary file left after a failed write: %v", ents)
	}
	if err := WriteFile(path, 0o600, writeString("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("file = %q, want new", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", fi.Mode().Perm())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary file left: %v", ents)
	}
}

func TestWriteFileMissingFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "a.txt")
	if err := WriteFile(path, 0o644, writeString("x")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("WriteFile in a missing folder = %v, want ErrNotExist", err)
	}
}

func TestWriteNewNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "key")
	if err := WriteNew(path, 0o600, writeString("first")); err != nil {
		t.Fatal(err)
	}
	err := WriteNew(path, 0o600, writeString("second"))
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("WriteNew over an existing file = %v, want ErrExist", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "first" {
		t.Errorf("file = %q, want the first write kept", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary file left: %v", ents)
	}
}

func TestWriteNewOneWinnerOfMany(t *testing.T) {
	path := filepath.Join(t.TempDir(), "key")
	var wg sync.WaitGroup
	wins := make(chan string, 8)
	for _, v := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		wg.Go(func() {
			if err := WriteNew(path, 0o600, writeString(v)); err == nil {
				wins <- v
			} else if !errors.Is(err, fs.ErrExist) {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	close(wins)
	var won []string
	for v := range wins {
		won = append(won, v)
	}
	if b, _ := os.ReadFile(path); len(won) != 1 || string(b) != won[0] {
		t.Errorf("winners %v, file %q: want exactly one, whose content stays", won, b)
	}
}

func TestReadSmall(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadSmall(path, 5); err != nil || string(b) != "12345" {
		t.Errorf("ReadSmall at the limit = %q, %v", b, err)
	}
	if _, err := ReadSmall(path, 4); err == nil {
		t.Error("ReadSmall of a file over the limit succeeded")
	}
	if _, err := ReadSmall(dir, 1<<20); err == nil {
		t.Error("ReadSmall of a folder succeeded")
	}
	if _, err := ReadSmall(filepath.Join(dir, "missing"), 5); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadSmall of a missing file = %v, want ErrNotExist", err)
	}
}

func TestWriteFileInStaysInTheRoot(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileIn(root, "sub/m.jsonl", 0o600, writeString("one\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "sub", "m.jsonl")); string(b) != "one\n" {
		t.Errorf("file = %q", b)
	}
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileIn(root, "out/x", 0o600, writeString("x")); err == nil {
		t.Error("WriteFileIn followed a link out of the root")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("written outside the root: %v", ents)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "sub")); len(ents) != 1 {
		t.Errorf("temporary file left: %v", ents)
	}
}

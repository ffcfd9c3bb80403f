//go:build unix

package fsedit

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// blobModes returns the mode of every backup blob of the project.
func blobModes(t *testing.T, dir string) map[string]fs.FileMode {
	t.Helper()
	out := map[string]fs.FileMode{}
	filepath.WalkDir(filepath.Join(dir, ".agent/backups"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "manifest.jsonl" || d.Name() == ".lock" {
			return err
		}
		fi, err := os.Lstat(p)
		if err == nil {
			out[p] = fi.Mode()
		}
		return err
	})
	return out
}

func mode(t *testing.T, p string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}

// TestWriteDropsSetuidAndSealsBlobs: new content never keeps setuid,
// setgid or sticky; every backup blob is 0600 whatever the file's mode
// (a world-writable file under umask 0, a setuid script, a file with a
// second name); the manifest records the permission bits and undo puts
// them back, without setuid.
func TestWriteDropsSetuidAndSealsBlobs(t *testing.T) {
	old := syscall.Umask(0)
	t.Cleanup(func() { syscall.Umask(old) })
	p := newProject(t, map[string]string{"tool.sh": "#!/bin/sh\necho hi\n", "open.txt": "a\n", "linked.txt": "l\n"})
	tool := filepath.Join(p.dir, "tool.sh")
	if err := os.Chmod(tool, 0o755|fs.ModeSetuid|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(p.dir, "open.txt"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(p.dir, "linked.txt"), filepath.Join(p.dir, "other-name.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(p.dir, "linked.txt"), 0o664); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"tool.sh", "open.txt", "linked.txt"} {
		wantOK(t, p.read(f))
	}
	p.reply("r1", func() {
		wantOK(t, p.write("rewrite", "tool.sh", "#!/bin/sh\necho changed\n"))
		wantOK(t, p.write("partial", "open.txt", "b\n", "start_line", "1", "end_line", "1"))
		wantOK(t, p.write("rewrite", "linked.txt", "L\n"))
	})
	if got := mode(t, tool); got != 0o755 {
		t.Errorf("rewritten setuid script: mode %v, want 0755 (no setuid/setgid)", got)
	}
	if got := mode(t, filepath.Join(p.dir, "open.txt")); got != 0o666 {
		t.Errorf("rewritten 0666 file: mode %v, want its permission bits kept", got)
	}
	if got := mode(t, filepath.Join(p.dir, "other-name.txt")); got != 0o664 {
		t.Errorf("the other name of a rewritten file: mode %v, want 0664 unchanged", got)
	}
	blobs := blobModes(t, p.dir)
	if len(blobs) != 3 {
		t.Fatalf("blobs %v, want 3", blobs)
	}
	for b, m := range blobs {
		if m != 0o600 {
			t.Errorf("backup %s: mode %v, want 0600", b, m)
		}
	}

	if _, err := p.root.Undo(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	if got := mode(t, tool); got != 0o755 {
		t.Errorf("undone setuid script: mode %v, want 0755 (its bits, no setuid)", got)
	}
	if got := mode(t, filepath.Join(p.dir, "open.txt")); got != 0o666 {
		t.Errorf("undone 0666 file: mode %v, want 0666", got)
	}
	if p.content("tool.sh") != "#!/bin/sh\necho hi\n" {
		t.Errorf("undo content %q", p.content("tool.sh"))
	}
	for b, m := range blobModes(t, p.dir) {
		if m != 0o600 {
			t.Errorf("after undo, backup %s: mode %v, want 0600", b, m)
		}
	}
}

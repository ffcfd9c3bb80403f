package backup

import (
	"bytes"
	"os"
	"path"
	"strings"
	"testing"
	"time"
)

var testKey = []byte("0123456789abcdef0123456789abcdef")

// TestSignedEntries: what the store writes verifies with its key; an
// entry with no signature, a changed byte, another key's signature or a
// signature glued onto another line does not, and a prune keeps every
// line as it was (it never signs what it did not write).
func TestSignedEntries(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := New(root, Retention{MaxAge: time.Hour}, func() time.Time { return now }, testKey)
	ours := Entry{Time: now.Add(-2 * time.Hour), ChangeSet: "old", Path: "a.md", Op: OpRewrite, Existed: true, Blob: "old/1-a.md", SHA256Before: "1", SHA256After: "2"}
	if err := s.Append(ours); err != nil {
		t.Fatal(err)
	}
	for _, cs := range []string{"mine", "keep"} {
		if err := s.Append(Entry{ChangeSet: cs, Path: "b.md", Op: OpCreate, SHA256After: "3"}); err != nil {
			t.Fatal(err)
		}
	}
	manifest := path.Join(Dir, manifestName)
	data, err := root.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	signed := lines[1]
	plain := strings.Replace(signed, signed[len(signed)-sigLen:], "}", 1)
	tampered := strings.Replace(signed, `"b.md"`, `"c.md"`, 1)
	theirs := string(sign([]byte(plain), []byte("another user's key, 32 bytes....")))
	glued := strings.Replace(lines[2], lines[2][len(lines[2])-sigLen:], signed[len(signed)-sigLen:], 1)
	for _, l := range []string{plain, tampered, theirs, glued} {
		data = append(data, l+"\n"...)
	}
	if err := root.WriteFile(manifest, data, 0o600); err != nil {
		t.Fatal(err)
	}

	es, err := s.Entries()
	if err != nil {
		t.Fatal(err)
	}
	var got []bool
	for _, e := range es {
		got = append(got, e.Verified)
	}
	want := []bool{true, true, true, false, false, false, false}
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d Verified = %v, want %v\n%s", i, got[i], want[i], es[i].raw)
		}
	}
	if s2 := New(root, Retention{}, nil, []byte("another user's key, 32 bytes....")); true {
		es2, _ := s2.Entries()
		for i, e := range es2 {
			if e.Verified != (i == 5) {
				t.Errorf("with another key, entry %d Verified = %v", i, e.Verified)
			}
		}
	}

	// The prune drops the old change set and writes the rest back byte
	// for byte: the unsigned lines stay unsigned.
	if n, err := s.Prune(); err != nil || n != 1 {
		t.Fatalf("Prune = %d, %v; want the old change set dropped", n, err)
	}
	after, _ := root.ReadFile(manifest)
	if want := strings.Join(lines[1:], "\n") + "\n" + plain + "\n" + tampered + "\n" + theirs + "\n" + glued + "\n"; string(after) != want {
		t.Errorf("the prune changed the lines it kept:\n%s\nwant\n%s", after, want)
	}
	if bytes.Count(after, []byte(sigField)) != 5 {
		t.Errorf("the prune signed lines: %s", after)
	}
	if fi, err := root.Stat(manifest); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("manifest mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
}

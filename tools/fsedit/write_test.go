package fsedit

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

func TestCreate(t *testing.T) {
	p := newProject(t, map[string]string{"exists.md": "x\n"})
	res := p.write("create", "docs/guide/new.md", "# Guide\nbody\n")
	wantOK(t, res)
	if got := p.content("docs/guide/new.md"); got != "# Guide\nbody\n" {
		t.Errorf("created %q", got)
	}
	if len(res.Changed) != 1 || res.Changed[0] != "docs/guide/new.md" {
		t.Errorf("Changed = %v", res.Changed)
	}
	wantCode(t, p.write("create", "exists.md", "y\n"), tools.CodeFileExists, "rewrite")
	if p.content("exists.md") != "x\n" {
		t.Error("create overwrote an existing file")
	}
	wantCode(t, p.write("create", "x.md", "y\n", "start_line", "1"), tools.CodeInvalidRange, "partial")
	// The agent knows what it created: a partial write right after works.
	wantOK(t, p.write("partial", "docs/guide/new.md", "more\n", "start_line", "3", "end_line", "2"))
	if got := p.content("docs/guide/new.md"); got != "# Guide\nbody\nmore\n" {
		t.Errorf("after create+partial %q", got)
	}
	if tf := tempFiles(t, p.dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
}

func TestStaleGuards(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "alpha\nbeta\n", "b.md": "one\n"})
	// Never read in this conversation.
	wantCode(t, p.write("rewrite", "a.md", "new\n"), tools.CodeFileStale, "read_file")
	wantCode(t, p.write("partial", "a.md", "new\n", "start_line", "1", "end_line", "1"), tools.CodeFileStale, "read")
	if p.content("a.md") != "alpha\nbeta\n" {
		t.Fatal("file changed by a refused write")
	}

	// Changed by another program after the read (size changes).
	wantOK(t, p.read("a.md"))
	writeFile(t, filepath.Join(p.dir, "a.md"), "alpha\nbeta\ngamma\n")
	wantCode(t, p.write("rewrite", "a.md", "new\n"), tools.CodeFileStale, "read it again")
	if p.content("a.md") != "alpha\nbeta\ngamma\n" {
		t.Fatal("the other program's change was lost")
	}

	// Same size, same mtime, different bytes: only the hash tells.
	wantOK(t, p.read("a.md"))
	path := filepath.Join(p.dir, "a.md")
	fi, _ := os.Stat(path)
	writeFile(t, path, "ALPHA\nbeta\ngamma\n")
	os.Chtimes(path, fi.ModTime(), fi.ModTime())
	wantCode(t, p.write("partial", "a.md", "x\n", "start_line", "3", "end_line", "3"), tools.CodeFileStale)
	if p.content("a.md") != "ALPHA\nbeta\ngamma\n" {
		t.Fatal("the other program's change was lost")
	}
	if tf := tempFiles(t, p.dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}

	// Reading again makes it writable.
	wantOK(t, p.read("a.md"))
	wantOK(t, p.write("partial", "a.md", "x\n", "start_line", "3", "end_line", "3"))
	// A range read is enough for a partial write.
	wantOK(t, p.read("b.md", "start_line", "1", "end_line", "1"))
	wantOK(t, p.write("partial", "b.md", "two\n", "start_line", "2", "end_line", "1"))
}

func TestPlaceholderRewrite(t *testing.T) {
	var old strings.Builder
	for i := range 40 {
		old.WriteString("func f" + sandbox.Itoa(i) + "() {}\n")
	}
	p := newProject(t, map[string]string{"main.go": old.String(), "notes.md": "a\n# rest of the file unchanged\nb\nc\n"})
	wantOK(t, p.read("main.go"))
	for _, ph := range []string{"// ... existing code ...", "// rest of the file unchanged", "# ... rest of the code remains the same", "/* remaining functions unchanged */"} {
		res := p.write("rewrite", "main.go", "package main\n\n"+ph+"\nfunc g() {}\n")
		wantCode(t, res, tools.CodeContentPlaceholder, "complete content", "partial")
	}
	if p.content("main.go") != old.String() {
		t.Fatal("placeholder rewrite changed the file")
	}
	// The same placeholder as a partial write over many lines.
	res := p.write("partial", "main.go", "// ... existing code ...\n", "start_line", "2", "end_line", "30")
	wantCode(t, res, tools.CodeContentPlaceholder)
	// A shorter rewrite without placeholders is fine.
	wantOK(t, p.write("rewrite", "main.go", "package main\n\nfunc g() {}\n"))
	// A placeholder-like line that was already in the file is no evidence.
	wantOK(t, p.read("notes.md"))
	wantOK(t, p.write("rewrite", "notes.md", "a\n# rest of the file unchanged\n"))
}

func TestPartialRanges(t *testing.T) {
	base := "1\n2\n3\n4\n5\n"
	cases := []struct {
		name       string
		start, end string
		content    string
		want       string
		code       string
	}{
		{"replace middle", "2", "3", "two\nthree\nmore\n", "1\ntwo\nthree\nmore\n4\n5\n", ""},
		{"replace one", "5", "5", "five", "1\n2\n3\n4\nfive\n", ""},
		{"insert before 1", "1", "0", "zero\n", "zero\n1\n2\n3\n4\n5\n", ""},
		{"insert before 3", "3", "2", "x\n", "1\n2\nx\n3\n4\n5\n", ""},
		{"append", "6", "5", "6\n7\n", "1\n2\n3\n4\n5\n6\n7\n", ""},
		{"delete", "2", "4", "", "1\n5\n", ""},
		{"delete all", "1", "5", "", "", ""},
		{"start past end", "8", "8", "x", "", tools.CodeInvalidRange},
		{"end past end", "4", "6", "x", "", tools.CodeInvalidRange},
		{"end before start-1", "4", "2", "x", "", tools.CodeInvalidRange},
		{"zero", "0", "1", "x", "", tools.CodeInvalidRange},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t, map[string]string{"f.md": base})
			wantOK(t, p.read("f.md"))
			res := p.write("partial", "f.md", tc.content, "start_line", tc.start, "end_line", tc.end)
			if tc.code != "" {
				wantCode(t, res, tc.code, "5 lines")
				if p.content("f.md") != base {
					t.Error("refused write changed the file")
				}
				return
			}
			wantOK(t, res)
			if got := p.content("f.md"); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if meta(res, "lines_before") != "5" || meta(res, "lines_after") != sandbox.Itoa(countLines(tc.want)) {
				t.Errorf("metadata %v", res.Metadata)
			}
		})
	}
	p := newProject(t, map[string]string{"f.md": base})
	wantOK(t, p.read("f.md"))
	wantCode(t, p.write("partial", "f.md", "x", "end_line", "2"), tools.CodeInvalidRange, "start_line")
	// start_line alone inserts before that line.
	wantOK(t, p.write("partial", "f.md", "x\n", "start_line", "2"))
	if got := p.content("f.md"); got != "1\nx\n2\n3\n4\n5\n" {
		t.Errorf("start_line alone = %q", got)
	}
}

func TestPartialKeepsEndingsAndFinalNewline(t *testing.T) {
	cases := []struct {
		name, old, start, end, content, want string
	}{
		{"crlf replace", "a\r\nb\r\nc\r\n", "2", "2", "B\nB2\n", "a\r\nB\r\nB2\r\nc\r\n"},
		{"crlf append", "a\r\nb\r\n", "3", "2", "c\n", "a\r\nb\r\nc\r\n"},
		{"no final newline, append", "a\nb", "3", "2", "c\n", "a\nb\nc"},
		{"no final newline, replace last", "a\nb", "2", "2", "B\n", "a\nB"},
		{"no final newline, delete last", "a\nb", "2", "2", "", "a"},
		{"no final newline, insert", "a\nb", "2", "1", "x\n", "a\nx\nb"},
		{"final newline, replace last without one", "a\nb\n", "2", "2", "B", "a\nB\n"},
		{"empty file", "", "1", "0", "first\nsecond\n", "first\nsecond\n"},
		{"mixed keeps each line", "a\r\nb\nc\r\n", "2", "2", "B\n", "a\r\nB\r\nc\r\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t, map[string]string{"f.md": tc.old})
			wantOK(t, p.read("f.md"))
			wantOK(t, p.write("partial", "f.md", tc.content, "start_line", tc.start, "end_line", tc.end))
			if got := p.content("f.md"); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRewriteKeepsEndingsModeAndFinalNewline(t *testing.T) {
	p := newProject(t, map[string]string{"w.md": "a\r\nb\r\n", "n.md": "a\nb", "run.sh": "#!/bin/sh\necho hi\n"})
	os.Chmod(filepath.Join(p.dir, "run.sh"), 0o751)
	for _, f := range []string{"w.md", "n.md", "run.sh"} {
		wantOK(t, p.read(f))
	}
	res := p.write("rewrite", "w.md", "x\ny\nz\n")
	wantOK(t, res)
	if got := p.content("w.md"); got != "x\r\ny\r\nz\r\n" {
		t.Errorf("crlf rewrite = %q", got)
	}
	if meta(res, "lines_before") != "2" || meta(res, "lines_after") != "3" {
		t.Errorf("metadata %v", res.Metadata)
	}
	if !strings.Contains(res.Content, "-b") || !strings.Contains(res.Content, "+z") {
		t.Errorf("diff does not show the change: %q", res.Content)
	}
	wantOK(t, p.write("rewrite", "n.md", "c\nd\n"))
	if got := p.content("n.md"); got != "c\nd" {
		t.Errorf("no-final-newline rewrite = %q", got)
	}
	wantOK(t, p.write("rewrite", "run.sh", "#!/bin/sh\necho bye\n"))
	fi, _ := os.Stat(filepath.Join(p.dir, "run.sh"))
	if fi.Mode().Perm() != 0o751 {
		t.Errorf("mode = %v, want 0751", fi.Mode().Perm())
	}
	wantCode(t, p.write("rewrite", "missing.md", "x"), tools.CodeFileNotFound, "create")
}

func TestBackupsRecorded(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "old\n", "b.md": "bee\n"})
	wantOK(t, p.read("a.md"))
	wantOK(t, p.write("rewrite", "a.md", "new\n"))
	wantOK(t, p.read("b.md"))
	res := p.write("rewrite", "b.md", "B\n", "create_backup", "false")
	wantOK(t, res)
	if !strings.Contains(res.Message, "backups are always kept") {
		t.Errorf("message %q does not say create_backup=false was ignored", res.Message)
	}

	st, err := p.root.Backups()
	if err != nil {
		t.Fatal(err)
	}
	es, err := st.Entries()
	if err != nil || len(es) != 2 {
		t.Fatalf("entries = %v, %v; want 2", es, err)
	}
	e := es[0]
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	if e.Path != "a.md" || e.Op != "rewrite" || e.Session != "s1" || e.Call != "c1" || e.ChangeSet != "cs1" ||
		e.SHA256Before != sum("old\n") || e.SHA256After != sum("new\n") || !e.Existed || time.Since(e.Time) > time.Minute {
		t.Errorf("entry = %+v", e)
	}
	f, err := st.OpenBlob(e)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 100)
	n, _ := f.Read(b)
	f.Close()
	if string(b[:n]) != "old\n" {
		t.Errorf("backup holds %q, want the old content", b[:n])
	}
	// Nothing lost: create_backup=false has no effect.
	if es[1].Blob == "" {
		t.Errorf("create_backup=false kept no blob: %+v", es[1])
	} else if f, err := st.OpenBlob(es[1]); err != nil {
		t.Errorf("open blob of b.md: %v", err)
	} else {
		n, _ := f.Read(b)
		f.Close()
		if string(b[:n]) != "bee\n" {
			t.Errorf("b.md backup holds %q, want %q", b[:n], "bee\n")
		}
	}
}

// TestPartialBulkCopy covers the bulk paths of a partial write: lines
// longer than the read buffer before and after the range, CRLF, and a
// range far from both ends.
func TestPartialBulkCopy(t *testing.T) {
	long := strings.Repeat("x", 600<<10)
	var b strings.Builder
	for i := 1; i <= 2000; i++ {
		if i == 10 || i == 1990 {
			b.WriteString(long + "\r\n")
			continue
		}
		b.WriteString("line " + sandbox.Itoa(i) + "\r\n")
	}
	old := b.String()
	p := newProject(t, map[string]string{"big.md": old})
	wantOK(t, p.read("big.md", "start_line", "1000", "end_line", "1001"))
	wantOK(t, p.write("partial", "big.md", "new a\nnew b\n", "start_line", "1000", "end_line", "1001"))
	want := strings.Replace(old, "line 1000\r\nline 1001\r\n", "new a\r\nnew b\r\n", 1)
	if got := p.content("big.md"); got != want {
		t.Fatalf("bulk partial: %d bytes, want %d", len(got), len(want))
	}
	// Right after the long line, and at the end of the file.
	wantOK(t, p.read("big.md", "start_line", "11", "end_line", "11"))
	wantOK(t, p.read("big.md", "start_line", "2000", "end_line", "2000"))
	wantOK(t, p.write("partial", "big.md", "after long\n", "start_line", "11", "end_line", "11"))
	wantOK(t, p.write("partial", "big.md", "last\n", "start_line", "2000", "end_line", "2000"))
	want = strings.Replace(want, long+"\r\nline 11\r\n", long+"\r\nafter long\r\n", 1)
	want = strings.TrimSuffix(want, "line 2000\r\n") + "last\r\n"
	if got := p.content("big.md"); got != want {
		t.Fatalf("second partials: %d bytes, want %d", len(got), len(want))
	}
}

// TestPartialHashResumesFromCheckpoints checks that the SHA-256 recorded
// for a partial write, which resumes from a checkpoint of the read, is
// the hash of the file written, write after write.
func TestPartialHashResumesFromCheckpoints(t *testing.T) {
	old := sandbox.CheckpointEvery
	sandbox.CheckpointEvery = 4 << 10
	t.Cleanup(func() { sandbox.CheckpointEvery = old })
	var b strings.Builder
	for i := 1; i <= 20000; i++ {
		b.WriteString("line " + sandbox.Itoa(i) + " of the file\n")
	}
	p := newProject(t, map[string]string{"f.md": b.String()})
	wantOK(t, p.read("f.md"))
	st, _ := p.root.Backups()
	for _, at := range []string{"15000", "10", "10000", "19999", "1", "12000"} {
		wantOK(t, p.write("partial", "f.md", "changed at "+at+"\n", "start_line", at, "end_line", at))
		es, _ := st.Entries()
		got := es[len(es)-1].SHA256After
		sum := sha256.Sum256([]byte(p.content("f.md")))
		if got != hex.EncodeToString(sum[:]) {
			t.Fatalf("write at %s: manifest says %s, file hashes to %x", at, got, sum)
		}
		if seen, _ := p.sess.recall("f.md"); seen.sum != sum {
			t.Fatalf("write at %s: the session remembers a wrong hash", at)
		}
	}
}

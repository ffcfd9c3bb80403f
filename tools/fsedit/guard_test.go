package fsedit

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
)

// TestRewriteNeedsWholeRead: a line range allows a partial write but not
// a rewrite, which would drop lines the model never saw.
func TestRewriteNeedsWholeRead(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "1\n2\n3\n4\n"})
	wantOK(t, p.read("a.md", "start_line", "2", "end_line", "3"))
	wantCode(t, p.write("rewrite", "a.md", "x\n"), tools.CodeFileStale, "read the whole file", "partial")
	if got := p.content("a.md"); got != "1\n2\n3\n4\n" {
		t.Fatalf("a.md = %q, want it untouched", got)
	}
	// A partial write after a range read works, and does not make the
	// unseen lines known.
	wantOK(t, p.write("partial", "a.md", "two\n", "start_line", "2", "end_line", "2"))
	wantCode(t, p.write("rewrite", "a.md", "x\n"), tools.CodeFileStale, "read the whole file")

	// A range that covers every line is a whole read; so is a range of a
	// file read whole before, and a file the agent created.
	wantOK(t, p.read("a.md", "start_line", "1", "end_line", "4"))
	wantOK(t, p.write("rewrite", "a.md", "a\nb\n"))
	wantOK(t, p.read("a.md", "start_line", "2"))
	wantOK(t, p.read("a.md", "start_line", "1", "end_line", "1"))
	wantOK(t, p.write("rewrite", "a.md", "c\nd\n"))
	wantOK(t, p.write("create", "new.md", "n\n"))
	wantOK(t, p.write("rewrite", "new.md", "m\n"))
}

// TestSessionStateKeepsPartialReads: a range read stays a range read in
// another process, and a state saved by an older version counts as whole.
func TestSessionStateKeepsPartialReads(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "1\n2\n3\n"})
	wantOK(t, p.read("a.md", "start_line", "2", "end_line", "2"))
	var buf bytes.Buffer
	if err := p.sess.SaveState(&buf); err != nil {
		t.Fatal(err)
	}
	s2 := NewSession(p.root)
	if err := s2.LoadState(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry(s2.Tools()...)
	res, err := reg.Call(p.ctx, "write_file", kv("operation_type", "rewrite", "file_path", "a.md", "content", "x\n"))
	if err != nil {
		t.Fatal(err)
	}
	wantCode(t, res, tools.CodeFileStale, "read the whole file")

	// A state saved before the partial and seen fields: a whole read.
	old := regexp.MustCompile(`,"partial":true,"seen":\[[^\]]*\]`).ReplaceAllString(buf.String(), "")
	s3 := NewSession(p.root)
	if err := s3.LoadState(strings.NewReader(old)); err != nil {
		t.Fatal(err)
	}
	res, err = tools.NewRegistry(s3.Tools()...).Call(p.ctx, "write_file", kv("operation_type", "rewrite", "file_path", "a.md", "content", "x\n"))
	if err != nil {
		t.Fatal(err)
	}
	wantOK(t, res)
}

// TestRewriteAfterConsecutiveRanges: a file over the read limit, read in
// consecutive ranges, may be rewritten; a gap in the ranges may not.
func TestRewriteAfterConsecutiveRanges(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "1\n2\n3\n4\n5\n6\n"})
	wantOK(t, p.read("a.md", "start_line", "1", "end_line", "2"))
	wantOK(t, p.read("a.md", "start_line", "4", "end_line", "6"))
	wantCode(t, p.write("rewrite", "a.md", "x\n"), tools.CodeFileStale, "read the whole file")
	wantOK(t, p.read("a.md", "start_line", "3", "end_line", "4"))
	wantOK(t, p.read("a.md", "start_line", "5"))
	wantOK(t, p.write("rewrite", "a.md", "x\n"))
}

// TestReadOnlyFileRefused: temp file and rename would bypass the mode of
// a read-only file, so rewrite and partial refuse it.
func TestReadOnlyFileRefused(t *testing.T) {
	p := newProject(t, map[string]string{"ro.md": "keep\n"})
	os.Chmod(filepath.Join(p.dir, "ro.md"), 0o444)
	wantOK(t, p.read("ro.md"))
	wantCode(t, p.write("rewrite", "ro.md", "x\n"), tools.CodePolicyDenied, "ro.md is read-only (mode 0444); ask the user to make it writable")
	wantCode(t, p.write("partial", "ro.md", "x\n", "start_line", "1", "end_line", "1"), tools.CodePolicyDenied, "read-only")
	if got := p.content("ro.md"); got != "keep\n" {
		t.Errorf("ro.md = %q, want it untouched", got)
	}
}

// TestPathControlCharsAndTrailingSlash: a path holding control characters
// is refused, and "a.txt/" is never taken as the file a.txt.
func TestPathControlCharsAndTrailingSlash(t *testing.T) {
	// A joiner is no control: emoji names use it.
	wantOK(t, newProject(t, nil).write("create", "fam\u200d.txt", "x\n"))
	p := newProject(t, map[string]string{"a.txt": "a\n"})
	for _, bad := range []string{"a\nb.txt", "a\x1b[31m.txt", "a\x01.txt", "a\x7f.txt", "a\tb.txt", "a\x00.txt", "c\u009b31m.txt", "z\u0085.txt", "y\u202e.txt", "v\u2066.txt", "n\u200e.txt", "l\u2028.txt"} {
		wantCode(t, p.read(bad), tools.CodeSchemaInvalid, "file_path must not contain control characters")
		wantCode(t, p.write("create", bad, "x\n"), tools.CodeSchemaInvalid, "control characters")
		wantCode(t, p.call("list_directory", kv("path", bad)), tools.CodeSchemaInvalid, "control characters")
	}
	wantCode(t, p.read("a.txt/"), tools.CodeSchemaInvalid, "trailing slash")
	wantOK(t, p.read("a.txt"))
	wantCode(t, p.write("rewrite", "a.txt/", "b\n"), tools.CodeSchemaInvalid, "trailing slash")
	wantCode(t, p.write("create", "new.txt/", "b\n"), tools.CodeSchemaInvalid, "trailing slash")
	if got := p.content("a.txt"); got != "a\n" {
		t.Errorf("a.txt = %q", got)
	}
	ents, _ := os.ReadDir(p.dir)
	for _, e := range ents {
		if e.Name() != "a.txt" && e.Name() != ".agent" {
			t.Errorf("unexpected file %q", e.Name())
		}
	}
}

// TestPlaceholderRules: a bare "..." or "pass" is code; a comment that
// stands in for the rest is refused even when the content is not shorter;
// empty content never erases a file.
func TestPlaceholderRules(t *testing.T) {
	p := newProject(t, map[string]string{"p.py": "class P(Protocol):\n    def f(self): ...\n", "m.go": "package m\n\nfunc a() {}\n"})
	wantOK(t, p.read("p.py"))
	wantOK(t, p.write("rewrite", "p.py", "class P(Protocol):\n    def f(self):\n        ...\n"))
	wantOK(t, p.write("rewrite", "p.py", "def g():\n    pass\n"))
	wantOK(t, p.read("m.go"))
	for _, ph := range []string{"// rest unchanged", "# rest of the file unchanged", "-- existing code", "/* ... existing ... */", "<!-- remains the same -->", "; unchanged code"} {
		res := p.write("rewrite", "m.go", "package m\n\nfunc a() {}\n\nfunc b() {}\n"+ph+"\n")
		wantCode(t, res, tools.CodeContentPlaceholder, "complete content")
	}
	wantCode(t, p.write("rewrite", "m.go", ""), tools.CodeContentPlaceholder, "to empty a file, say so to the user")
	if got := p.content("m.go"); got != "package m\n\nfunc a() {}\n" {
		t.Errorf("m.go = %q", got)
	}
	// A real comment that merely mentions "unchanged" is fine when no
	// lines go.
	wantOK(t, p.write("rewrite", "m.go", "package m\n\n// a returns unchanged input.\nfunc a() {}\n"))
}

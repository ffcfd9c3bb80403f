package fsedit

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
)

// preview runs write_file's Preview on a call, as the loop does before it
// asks for approval.
func (p *project) preview(args map[string]string) (tools.Preview, *tools.Result) {
	p.t.Helper()
	tool, ok := p.reg.Lookup("write_file")
	if !ok {
		p.t.Fatal("no write_file")
	}
	pv, isPv := tool.(tools.Previewer)
	if !isPv {
		p.t.Fatal("write_file does not implement tools.Previewer")
	}
	in, bad := tools.Validate(tool.Definition(), args)
	if bad != nil {
		p.t.Fatalf("validate: %s", bad.Message)
	}
	prev, res, err := pv.Preview(p.ctx, in)
	if err != nil {
		p.t.Fatalf("preview: Go error %v", err)
	}
	return prev, res
}

func stateJSON(t *testing.T, s *Session) string {
	var b bytes.Buffer
	if err := s.SaveState(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestPreviewEveryOperation(t *testing.T) {
	old := "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"
	p := newProject(t, map[string]string{"a.md": old, "crlf.txt": "a\r\nb\r\n"})
	wantOK(t, p.read("a.md"))
	wantOK(t, p.read("crlf.txt"))
	before := stateJSON(t, p.sess)
	cases := []struct {
		args    map[string]string
		summary string
		diff    []string
	}{
		{kv("operation_type", "create", "file_path", "new/b.md", "content", "hello\n"), "create new/b.md", []string{"--- a/new/b.md", "+hello"}},
		{kv("operation_type", "rewrite", "file_path", "a.md", "content", strings.Replace(old, "five", "FIVE", 1)), "rewrite a.md", []string{"-five", "+FIVE", " four"}},
		// A partial write shows what it removes, not only the new lines.
		{kv("operation_type", "partial", "file_path", "a.md", "content", "X\n", "start_line", "2", "end_line", "9"), "replace lines 2-9 of a.md", []string{"-two", "-nine", "+X", " ten"}},
		{kv("operation_type", "partial", "file_path", "a.md", "content", "", "start_line", "3", "end_line", "4"), "delete lines 3-4 of a.md", []string{"-three", "-four"}},
		{kv("operation_type", "partial", "file_path", "a.md", "content", "zero\n", "start_line", "1", "end_line", "0"), "insert before line 1 of a.md", []string{"+zero", " one"}},
		{kv("operation_type", "replace", "file_path", "a.md", "content", "SIX\n", "old_text", "six\n"), "replace in a.md", []string{"-six", "+SIX"}},
		{kv("operation_type", "replace", "file_path", "crlf.txt", "content", "B\n", "old_text", "b\n"), "replace in crlf.txt", []string{"-b", "+B"}},
	}
	for _, tc := range cases {
		prev, res := p.preview(tc.args)
		if res != nil {
			t.Fatalf("%s: refused %s %s", tc.summary, res.Code, res.Message)
		}
		if prev.Summary != tc.summary {
			t.Errorf("summary %q, want %q", prev.Summary, tc.summary)
		}
		for _, d := range tc.diff {
			if !strings.Contains(prev.Diff, d+"\n") {
				t.Errorf("%s: diff lacks %q:\n%s", tc.summary, d, prev.Diff)
			}
		}
		if strings.Contains(prev.Diff, "\r") {
			t.Errorf("%s: diff shows carriage returns", tc.summary)
		}
	}
	// Nothing was written or created, and nothing the session knows changed.
	if p.content("a.md") != old {
		t.Error("a preview changed the file")
	}
	if _, err := p.root.Resolve("new"); err != nil {
		t.Fatal(err)
	}
	if tf := tempFiles(t, p.dir); len(tf) != 0 {
		t.Errorf("temp files: %v", tf)
	}
	if t2, _ := p.root.Resolve("new"); t2.Info != nil {
		t.Error("a preview of create made its folder")
	}
	if after := stateJSON(t, p.sess); after != before {
		t.Errorf("a preview changed the read state:\n%s\n%s", before, after)
	}
	// The write itself still works after its previews.
	wantOK(t, p.write("partial", "a.md", "X\n", "start_line", "2", "end_line", "9"))
}

// TestPreviewRefusesWhatWouldFail: nobody is asked about a write that
// would fail; the preview answers with the write's own error.
func TestPreviewRefusesWhatWouldFail(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "one\ntwo\nthree\n", "unread.md": "x\n", "big.md": numberedLines(50)})
	wantOK(t, p.read("a.md"))
	wantOK(t, p.read("big.md", "start_line", "1", "end_line", "10"))
	for _, tc := range []struct {
		args map[string]string
		code string
	}{
		{kv("operation_type", "create", "file_path", "a.md", "content", "x\n"), tools.CodeFileExists},
		{kv("operation_type", "rewrite", "file_path", "unread.md", "content", "y\n"), tools.CodeFileStale},
		{kv("operation_type", "rewrite", "file_path", "big.md", "content", "y\n"), tools.CodeFileStale},
		{kv("operation_type", "partial", "file_path", "big.md", "content", "y\n", "start_line", "20", "end_line", "21"), tools.CodeFileStale},
		{kv("operation_type", "partial", "file_path", "a.md", "content", "y\n", "start_line", "7", "end_line", "8"), tools.CodeInvalidRange},
		{kv("operation_type", "replace", "file_path", "a.md", "content", "y\n", "old_text", "four\n"), tools.CodeNoMatch},
		{kv("operation_type", "rewrite", "file_path", "a.md", "content", "one\n// rest of the file unchanged\n"), tools.CodeContentPlaceholder},
		{kv("operation_type", "rewrite", "file_path", "../x.md", "content", "y\n"), tools.CodePathOutsideRoot},
		{kv("operation_type", "create", "file_path", "img.png", "content", "y\n"), tools.CodeUnsupportedType},
		{kv("operation_type", "rewrite", "file_path", "gone.md", "content", "y\n"), tools.CodeFileNotFound},
	} {
		_, res := p.preview(tc.args)
		if res == nil {
			t.Errorf("%v: preview passed, want %s", tc.args, tc.code)
			continue
		}
		wantCode(t, *res, tc.code)
	}
	// A file changed on disk since the read: stale, and the session still
	// remembers the read (a preview never forgets).
	before := stateJSON(t, p.sess)
	writeFile(t, p.dir+"/a.md", "changed by the user\n")
	_, res := p.preview(kv("operation_type", "rewrite", "file_path", "a.md", "content", "y\n"))
	if res == nil || res.Code != tools.CodeFileStale {
		t.Fatalf("stale preview: %v", res)
	}
	if stateJSON(t, p.sess) != before {
		t.Error("a stale preview changed the read state")
	}
}

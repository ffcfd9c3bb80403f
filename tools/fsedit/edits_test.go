package fsedit

import (
	"context"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// reply returns a context for the calls of one model reply: one change set.
func (p *project) inReply(id string) {
	p.ctx = tools.WithInfo(p.t.Context(), tools.CallInfo{SessionID: "s1", CallID: "c-" + id, ChangeSet: "cs-" + id})
}

func numberedLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString("line " + sandbox.Itoa(i) + "\n")
	}
	return b.String()
}

// TestTwoPartialsOneReply is the defect: lines 3-4 → one line, then line
// 8, in one reply, used to replace the original line 9.
func TestTwoPartialsOneReply(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": numberedLines(10)})
	p.inReply("1")
	wantOK(t, p.read("a.md"))
	p.inReply("2")
	res := p.write("partial", "a.md", "three-four\n", "start_line", "3", "end_line", "4")
	wantOK(t, res)
	if meta(res, "written") != "3-3" || meta(res, "lines_after") != "9" || !strings.Contains(res.Message, "the new lines are 3-3") {
		t.Errorf("result does not give the new numbers: %s %v", res.Message, res.Metadata)
	}
	wantCode(t, p.write("partial", "a.md", "eight\n", "start_line", "8", "end_line", "8"), tools.CodeFileStale, "moved by -1", "edit from the bottom up, or use replace")
	// Above the change: fine. replace: fine.
	wantOK(t, p.write("partial", "a.md", "one\n", "start_line", "1", "end_line", "1"))
	wantOK(t, p.write("replace", "a.md", "eight\n", "old_text", "line 8\n"))
	want := "one\nline 2\nthree-four\nline 5\nline 6\nline 7\neight\nline 9\nline 10\n"
	if got := p.content("a.md"); got != want {
		t.Fatalf("file = %q, want %q", got, want)
	}
	// The next reply knows the new numbers (it saw the results).
	p.inReply("3")
	wantOK(t, p.write("partial", "a.md", "nine\n", "start_line", "8", "end_line", "8"))
	if got := p.content("a.md"); !strings.Contains(got, "eight\nnine\nline 10\n") {
		t.Fatalf("next reply's write: %q", got)
	}
}

// TestPartialNeedsItsLinesRead: read 1-5, write 10-12 used to succeed.
func TestPartialNeedsItsLinesRead(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": numberedLines(20)})
	wantOK(t, p.read("a.md", "start_line", "1", "end_line", "5"))
	wantCode(t, p.write("partial", "a.md", "x\n", "start_line", "10", "end_line", "12"), tools.CodeFileStale, "lines 10-12", "you have seen lines 1-5")
	wantOK(t, p.read("a.md", "start_line", "9", "end_line", "13"))
	wantOK(t, p.write("partial", "a.md", "x\n", "start_line", "10", "end_line", "12"))
	// An insertion needs a line next to it; an append the last line.
	p.inReply("b")
	wantCode(t, p.write("partial", "a.md", "end\n", "start_line", "19"), tools.CodeFileStale)
	wantOK(t, p.write("partial", "a.md", "after 4\n", "start_line", "5", "end_line", "4"))
}

func TestReplace(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "package a\n\nfunc A() {\n\treturn 1\n}\n\nfunc B() {\n\treturn 1\n}\n", "crlf.md": "one\r\ntwo\r\nthree\r\n"})
	wantCode(t, p.write("replace", "a.go", "x", "old_text", "package a"), tools.CodeFileStale, "read")
	wantOK(t, p.read("a.go"))
	// Absent: the closest line; whitespace-only difference named.
	wantCode(t, p.write("replace", "a.go", "x", "old_text", "func Aa() {"), tools.CodeNoMatch, "closest line is 3", `"func A() {"`)
	wantCode(t, p.write("replace", "a.go", "x", "old_text", "func A() {\n    return 1\n"), tools.CodeNoMatch, "lines 3-4 hold the same text with other whitespace")
	// Several without replace_all: the count and where.
	wantCode(t, p.write("replace", "a.go", "\treturn 2\n", "old_text", "\treturn 1\n"), tools.CodeNoMatch, "occurs 2 times", "lines 4, 8", "replace_all")
	res := p.write("replace", "a.go", "\t// two\n\treturn 2\n", "old_text", "\treturn 1\n", "replace_all", "true")
	wantOK(t, res)
	if meta(res, "written") != "4-5,9-10" || meta(res, "lines_after") != "11" {
		t.Errorf("replace_all result: %s %v", res.Message, res.Metadata)
	}
	want := "package a\n\nfunc A() {\n\t// two\n\treturn 2\n}\n\nfunc B() {\n\t// two\n\treturn 2\n}\n"
	if got := p.content("a.go"); got != want {
		t.Fatalf("after replace_all: %q", got)
	}
	// Partial writes below it in the same reply are refused: it moved lines.
	wantCode(t, p.write("partial", "a.go", "}\n", "start_line", "9", "end_line", "9"), tools.CodeFileStale, "moved by +2")
	// CRLF files: the model's \n text matches and stays CRLF.
	wantOK(t, p.read("crlf.md"))
	wantOK(t, p.write("replace", "crlf.md", "2\nand a half\n", "old_text", "two\n"))
	if got := p.content("crlf.md"); got != "one\r\n2\r\nand a half\r\nthree\r\n" {
		t.Fatalf("crlf replace: %q", got)
	}
	// Placeholders are refused as in a rewrite.
	wantCode(t, p.write("replace", "a.go", "// ... existing code ...\n", "old_text", "func B() {\n\t// two\n\treturn 2\n}\n"), tools.CodeContentPlaceholder)
	// old_text elsewhere is a schema error.
	wantCode(t, p.write("rewrite", "a.go", "x\n", "old_text", "y"), tools.CodeSchemaInvalid, "only to operation_type replace")
	// Undo restores a replace like any write.
	if _, err := p.root.Undo(context.Background(), false); err != nil {
		t.Fatal(err)
	}
}

// TestRewriteThenPartialOneReply: after a rewrite that changed the line
// count, a partial write of the same reply cannot know which numbers it
// means; replace still works, and the next reply may use the new ones.
func TestRewriteThenPartialOneReply(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": numberedLines(5)})
	wantOK(t, p.read("a.md"))
	p.inReply("2")
	wantOK(t, p.write("rewrite", "a.md", "a\nb\nc\n"))
	wantCode(t, p.write("partial", "a.md", "B\n", "start_line", "2", "end_line", "2"), tools.CodeFileStale, "moved by -2")
	wantOK(t, p.write("replace", "a.md", "B\n", "old_text", "b\n"))
	p.inReply("3")
	wantOK(t, p.write("partial", "a.md", "C\n", "start_line", "3", "end_line", "3"))
	if got := p.content("a.md"); got != "a\nB\nC\n" {
		t.Fatalf("file %q", got)
	}
}

package fsedit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

func TestReadMetadataAndRanges(t *testing.T) {
	p := newProject(t, map[string]string{
		"a.md":     "one\ntwo\nthree\nfour\n",
		"crlf.md":  "one\r\ntwo\r\n",
		"nofin.md": "one\ntwo",
		"empty.md": "",
	})
	res := p.read("a.md")
	wantOK(t, res)
	for name, want := range map[string]string{"size": "19", "lines": "4", "encoding": "utf-8", "line_ending": "lf", "range": "1-4"} {
		if got := meta(res, name); got != want {
			t.Errorf("metadata %s = %q, want %q", name, got, want)
		}
	}
	res = p.read("a.md", "start_line", "2", "end_line", "3")
	wantOK(t, res)
	if res.Content != "two\nthree\n" || meta(res, "range") != "2-3" {
		t.Errorf("range 2-3 = %q (%s)", res.Content, meta(res, "range"))
	}
	res = p.read("a.md", "start_line", "3", "end_line", "99")
	if res.Content != "three\nfour\n" || meta(res, "range") != "3-4" {
		t.Errorf("range clamped = %q (%s)", res.Content, meta(res, "range"))
	}
	res = p.read("a.md", "start_line", "3")
	if res.Content != "three\nfour\n" {
		t.Errorf("from 3 = %q", res.Content)
	}
	res = p.read("a.md", "start_line", "2", "end_line", "3", "line_numbers", "true")
	if res.Content != "2| two\n3| three\n" {
		t.Errorf("numbered = %q", res.Content)
	}
	wantCode(t, p.read("a.md", "start_line", "9"), tools.CodeInvalidRange, "4 lines")
	wantCode(t, p.read("a.md", "start_line", "3", "end_line", "2"), tools.CodeInvalidRange)
	wantCode(t, p.read("a.md", "start_line", "0"), tools.CodeInvalidRange)

	res = p.read("crlf.md")
	if res.Content != "one\ntwo\n" || meta(res, "line_ending") != "crlf" {
		t.Errorf("crlf read = %q (%s)", res.Content, meta(res, "line_ending"))
	}
	res = p.read("nofin.md")
	if meta(res, "final_newline") != "no" || meta(res, "lines") != "2" {
		t.Errorf("no final newline: %v", res.Metadata)
	}
	res = p.read("empty.md")
	wantOK(t, res)
	if meta(res, "lines") != "0" || res.Content != "" {
		t.Errorf("empty: %v %q", res.Metadata, res.Content)
	}
}

func TestReadRefusesBinaryAndReportsInvalidUTF8(t *testing.T) {
	p := newProject(t, map[string]string{
		"bin.txt":   "abc\x00def",
		"latin.txt": "ok\ncaf\xe9\nfine\n",
	})
	wantCode(t, p.read("bin.txt"), tools.CodeUnsupportedType, "binary")
	res := p.read("latin.txt")
	wantOK(t, res)
	if !strings.Contains(meta(res, "encoding"), "invalid") {
		t.Errorf("encoding = %q, want it to report invalid bytes", meta(res, "encoding"))
	}
	if !strings.Contains(res.Message, "line") || !strings.Contains(res.Message, "2") {
		t.Errorf("message %q should name line 2", res.Message)
	}
	if res.Content != "ok\ncaf\uFFFD\nfine\n" {
		t.Errorf("content = %q", res.Content)
	}
	// A rewrite would lose the bytes: refused. A partial write elsewhere keeps them.
	wantCode(t, p.write("rewrite", "latin.txt", "x\n"), tools.CodeUnsupportedType, "partial")
	wantOK(t, p.write("partial", "latin.txt", "OK\n", "start_line", "1", "end_line", "1"))
	if got := p.content("latin.txt"); got != "OK\ncaf\xe9\nfine\n" {
		t.Errorf("after partial = %q, want the invalid byte kept", got)
	}
	wantCode(t, p.write("partial", "latin.txt", "cafe\n", "start_line", "2", "end_line", "2"), tools.CodeUnsupportedType, "line 2")
}

func TestReadTooLarge(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "line %04d of a file that is longer than the small limit\n", i+1)
	}
	p := newProjectOpts(t, map[string]string{"big.md": b.String()}, sandbox.Options{MaxReadBytes: 64 << 10})
	res := p.read("big.md")
	wantCode(t, res, tools.CodeFileTooLarge, "3000 lines", "start_line")
	res = p.read("big.md", "start_line", "100", "end_line", "199")
	wantOK(t, res)
	if got := strings.Count(res.Content, "\n"); got != 100 {
		t.Errorf("range read %d lines, want 100", got)
	}
	wantCode(t, p.read("big.md", "start_line", "1", "end_line", "3000"), tools.CodeFileTooLarge, "fewer lines")
}

func TestUTF8Stream(t *testing.T) {
	text := "héllo wörld ✓ 日本語 \U0001F600"
	for split := 0; split <= len(text); split++ {
		var u utf8Stream
		ok := u.valid([]byte(text[:split])) && u.valid([]byte(text[split:]))
		if !ok || u.pending() {
			t.Errorf("split at %d: valid text reported invalid", split)
		}
	}
	var u utf8Stream
	if u.valid([]byte("ab\xe9cd")) {
		t.Error("invalid byte not reported")
	}
	u.reset()
	u.valid([]byte("ab\xe6\x97"))
	if !u.pending() {
		t.Error("truncated rune at end of line not pending")
	}
}

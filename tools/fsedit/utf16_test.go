package fsedit

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/tools/sandbox"
)

func encode16(t *testing.T, s, enc string) string {
	t.Helper()
	var b strings.Builder
	w := sandbox.NewUTF16Writer(&b, enc)
	w.Write([]byte(s))
	w.Finish()
	return b.String()
}

// TestUTF16 reads UTF-16 files with a BOM decoded and writes them back in
// the same encoding, for every operation, and undo restores the bytes.
// (A UTF-16 file is full of NUL bytes: it used to be refused as binary.)
func TestUTF16(t *testing.T) {
	for _, enc := range []string{sandbox.EncUTF16LE, sandbox.EncUTF16BE} {
		t.Run(enc, func(t *testing.T) {
			text := "Windows Registry Editor\r\n[HKEY_CURRENT_USER\\Software\\Ünïcode 😀]\r\n\"a\"=\"1\"\r\n"
			orig := encode16(t, text, enc)
			p := newProject(t, map[string]string{"set.reg": orig})
			res := p.read("set.reg")
			wantOK(t, res)
			if res.Content != strings.ReplaceAll(text, "\r\n", "\n") || meta(res, "encoding") != enc || meta(res, "line_ending") != "crlf" {
				t.Fatalf("read: %q %v", res.Content, res.Metadata)
			}
			prev, bad := p.preview(kv("operation_type", "replace", "file_path", "set.reg", "old_text", "\"a\"=\"1\"", "content", "\"a\"=\"2\""))
			if bad != nil || !strings.Contains(prev.Diff, "+\"a\"=\"2\"\n") {
				t.Fatalf("preview: %v %q", bad, prev.Diff)
			}
			wantOK(t, p.write("replace", "set.reg", "\"a\"=\"2\"", "old_text", "\"a\"=\"1\""))
			want := strings.Replace(text, "\"a\"=\"1\"", "\"a\"=\"2\"", 1)
			if got := p.content("set.reg"); got != encode16(t, want, enc) {
				t.Fatalf("replace wrote %q", got)
			}
			wantOK(t, p.write("partial", "set.reg", "\"b\"=\"3\"\n", "start_line", "4", "end_line", "3"))
			want += "\"b\"=\"3\"\r\n"
			if got := p.content("set.reg"); got != encode16(t, want, enc) {
				t.Fatalf("partial wrote %q", got)
			}
			p.inReply("2")
			wantOK(t, p.write("rewrite", "set.reg", "only\nthis\n"))
			if got := p.content("set.reg"); got != encode16(t, "only\r\nthis\r\n", enc) {
				t.Fatalf("rewrite wrote %q", got)
			}
			// The state after our own write is known: the next reply may
			// write lines of it without a read.
			p.inReply("3")
			wantOK(t, p.write("partial", "set.reg", "that\n", "start_line", "2", "end_line", "2"))
			if res := p.read("set.reg"); res.Content != "only\nthat\n" {
				t.Fatalf("read back: %q", res.Content)
			}
			// Undo of the last reply puts back the bytes before it.
			if _, err := p.root.Undo(p.ctx, false); err != nil {
				t.Fatal(err)
			}
			if got := p.content("set.reg"); got != encode16(t, "only\r\nthis\r\n", enc) {
				t.Fatalf("undo: %q", got)
			}
		})
	}
}

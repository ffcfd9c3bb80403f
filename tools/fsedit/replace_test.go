package fsedit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// TestReplaceAllTooLarge is the hostile case: a one-letter old_text found
// 200,000 times and a 20 KB content would need 4 GB for the new text.
// The write and its preview (what the approval shows) both refuse it
// before building anything, the file stays as it was, and the session
// goes on.
func TestReplaceAllTooLarge(t *testing.T) {
	const matches = 200_000
	old := strings.Repeat("x\n", matches)
	p := newProject(t, map[string]string{"big.txt": old})
	wantOK(t, p.read("big.txt"))
	content := strings.Repeat("y", 20<<10)
	args := kv("operation_type", "replace", "file_path", "big.txt", "content", content, "old_text", "x", "replace_all", "true")

	_, res := p.preview(args)
	if res == nil {
		t.Fatal("preview of a 4 GB replace_all shows a diff, want a FILE_TOO_LARGE result")
	}
	wantCode(t, *res, tools.CodeFileTooLarge, "200000 occurrences", "GiB", "8.0 MiB")

	wantCode(t, p.call("write_file", args), tools.CodeFileTooLarge, "200000 occurrences", "fewer occurrences")
	if p.content("big.txt") != old {
		t.Fatal("the refused replace changed the file")
	}

	// The agent lives on: a replace_all within the limit over every one
	// of the 200,000 matches works, and the model still knows the file
	// well enough for a partial write without reading it again.
	res2 := p.write("replace", "big.txt", "z", "old_text", "x", "replace_all", "true")
	wantOK(t, res2)
	if got := p.content("big.txt"); got != strings.Repeat("z\n", matches) {
		t.Fatalf("after replace_all: %d bytes, %q...", len(got), got[:min(len(got), 20)])
	}
	p.inReply("next")
	wantOK(t, p.write("partial", "big.txt", "last\n", "start_line", sandbox.Itoa(matches), "end_line", sandbox.Itoa(matches)))
	if got := p.content("big.txt"); !strings.HasSuffix(got, "z\nlast\n") {
		t.Fatalf("partial write after the replace_all: ...%q", got[len(got)-20:])
	}
}

// TestReplaceAllGrowsToLimit: the bound is on the result, so a replace
// that stays under it works even when it grows the file a lot, and one
// byte more is refused.
func TestReplaceAllGrowsToLimit(t *testing.T) {
	const n = 1024
	old := strings.Repeat("x\n", n)
	p := newProject(t, map[string]string{"a.txt": old, "b.txt": old})
	wantOK(t, p.read("a.txt"))
	wantOK(t, p.read("b.txt"))
	// Each "x" becomes a line of per bytes: the file becomes exactly
	// replaceKeep, then one byte over it.
	per := (replaceKeep - n) / n
	fits := strings.Repeat("y", per)
	wantOK(t, p.write("replace", "a.txt", fits, "old_text", "x", "replace_all", "true"))
	over := strings.Repeat("y", per+1)
	wantCode(t, p.write("replace", "b.txt", over, "old_text", "x", "replace_all", "true"), tools.CodeFileTooLarge, "1024 occurrences")
}

// TestKnownAfterManyMatches: past maxTrackedMatches the lines from the
// first match to the last count as one write, known only if the model
// knew them before.
func TestKnownAfterManyMatches(t *testing.T) {
	var ms []match
	for i := 0; i < maxTrackedMatches+1; i++ {
		ms = append(ms, match{first: 10 + 2*i, last: 10 + 2*i})
	}
	last := ms[len(ms)-1].last
	whole := []lineSpan{{1, last + 5, "read"}}
	got := knownAfterReplace(whole, ms, 1, "w")
	// Every match grew by one line.
	grown := last + len(ms)
	if !covers(got, 1, grown+5) {
		t.Errorf("seen whole before, not whole after: %s", describeSeen(got))
	}
	part := []lineSpan{{1, 20, "read"}, {last + 1, last + 5, "read"}}
	got = knownAfterReplace(part, ms, 1, "w")
	if covers(got, 10, grown) {
		t.Errorf("lines not seen before count as known after: %s", describeSeen(got))
	}
	if !covers(got, 1, 9) || !covers(got, grown+1, grown+5) {
		t.Errorf("lines outside the matches lost or not moved: %s", describeSeen(got))
	}
}

// BenchmarkReplaceAllManyMatches is a replace_all of every line of a
// file of 100,000 one-letter lines: its cost must grow with the file, not
// with the square of the matches (what the model knows is updated once).
func BenchmarkReplaceAllManyMatches(b *testing.B) {
	const n = 100_000
	p := &project{}
	dir := b.TempDir()
	root := sandbox.NewRoot(dir, sandbox.Options{BackupMaxBytes: -1})
	b.Cleanup(func() { root.Close() })
	p.dir, p.root, p.sess = dir, root, NewSession(root)
	p.reg = tools.NewRegistry(p.sess.Tools()...)
	p.ctx = tools.WithInfo(b.Context(), tools.CallInfo{CallID: "c", ChangeSet: "bench"})
	from, to := "x", "y"
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte(strings.Repeat(from+"\n", n)), 0o644); err != nil {
		b.Fatal(err)
	}
	benchCall(b, p, "read_file", kv("file_path", "a.txt"))
	b.ReportAllocs()
	for b.Loop() {
		benchCall(b, p, "write_file", kv("operation_type", "replace", "file_path", "a.txt", "old_text", from, "content", to, "replace_all", "true"))
		from, to = to, from
		os.RemoveAll(filepath.Join(dir, ".agent"))
	}
}

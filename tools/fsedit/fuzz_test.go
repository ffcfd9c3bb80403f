package fsedit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// FuzzOneReplyEdits checks the line bookkeeping of one reply: a model
// reads a file, then sends random partial writes and replaces in one
// reply, every line number meaning the file as it read it. Whatever the
// tool accepts must touch exactly the lines the model addressed: the
// file ends up as the accepted edits applied to the text the model read.
func FuzzOneReplyEdits(f *testing.F) {
	for _, seed := range oneReplySeeds {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, ops []byte) {
		if err := runOneReply(t, ops); err != nil {
			t.Fatal(err)
		}
	})
}

// oneReplySeeds include the defect of the issue (3-4 → one line, then 8)
// and mixes of inserts, deletions, appends and replaces.
var oneReplySeeds = [][]byte{
	{10, 0, 2, 2, 1, 0, 7, 1, 1},
	{12, 0, 0, 0, 3, 0, 5, 0, 0, 1, 9, 2},
	{8, 1, 3, 0, 0, 5, 3, 0, 0, 2, 3, 1},
	{15, 0, 10, 3, 0, 0, 2, 2, 2, 0, 14, 0, 1},
	{6, 0, 6, 1, 3, 0, 1, 0, 0, 1, 5, 3},
	{9, 1, 8, 2, 0, 3, 0, 3, 1, 7, 0},
}

// origLine is a line as the model read it; no line is a substring of
// another, so each is a unique old_text.
func origLine(k int) string { return fmt.Sprintf("line-%d-orig", k) }

// entry is a line of the expected file: origin is its number in the text
// the model read, 0 for a line an edit wrote.
type entry struct {
	origin int
	text   string
}

func runOneReply(t *testing.T, ops []byte) error {
	if len(ops) == 0 {
		return nil
	}
	n := 3 + int(ops[0])%18
	ops = ops[1:]
	var b strings.Builder
	cur := make([]entry, n)
	for k := 1; k <= n; k++ {
		cur[k-1] = entry{k, origLine(k)}
		b.WriteString(origLine(k) + "\n")
	}
	p := newProject(t, map[string]string{"f.txt": b.String()})
	p.inReply("read")
	if res := p.read("f.txt"); res.IsError() {
		return fmt.Errorf("read: %s", res.Message)
	}
	p.inReply("edits")
	pos := func(k int) int {
		for i, e := range cur {
			if e.origin == k {
				return i + 1
			}
		}
		return 0
	}
	newLines := func(step, count int) ([]entry, string) {
		var es []entry
		var s strings.Builder
		for j := range count {
			l := fmt.Sprintf("new-%d-%d", step, j)
			es = append(es, entry{0, l})
			s.WriteString(l + "\n")
		}
		return es, s.String()
	}
	for step := 0; len(ops) >= 4 && step < 10; step++ {
		kind, x, y, z := ops[0]%2, int(ops[1]), int(ops[2]), int(ops[3])%4
		ops = ops[4:]
		added, content := newLines(step, z)
		if kind == 1 { // replace one line the model read, if it is still there
			k := 1 + x%n
			at := pos(k)
			if at == 0 {
				continue
			}
			res := p.write("replace", "f.txt", content, "old_text", origLine(k)+"\n")
			if res.IsError() {
				return fmt.Errorf("step %d: replace of line %d refused: %s %s", step, k, res.Code, res.Message)
			}
			cur = append(cur[:at-1], append(added, cur[at:]...)...)
			continue
		}
		start := 1 + x%(n+1)
		end := min(start-1+y%4, n)
		res := p.write("partial", "f.txt", content, "start_line", sandbox.Itoa(start), "end_line", sandbox.Itoa(end))
		if res.IsError() {
			if res.Code != tools.CodeFileStale && res.Code != tools.CodeInvalidRange {
				return fmt.Errorf("step %d: partial %d-%d: unexpected %s %s", step, start, end, res.Code, res.Message)
			}
			continue
		}
		// Accepted: every line the model addressed, and all above, must
		// still be where it read them.
		for k := 1; k <= max(start, end) && k <= n; k++ {
			if at := pos(k); at != 0 && at != k {
				return fmt.Errorf("step %d: partial %d-%d accepted, but line %d of the text read is now line %d: the edit landed on lines the model did not address", step, start, end, k, at)
			}
		}
		if end >= len(cur)+1 || start > len(cur)+1 {
			return fmt.Errorf("step %d: partial %d-%d accepted past the end", step, start, end)
		}
		cur = append(cur[:start-1], append(added, cur[end:]...)...)
	}
	var want strings.Builder
	for _, e := range cur {
		want.WriteString(e.text + "\n")
	}
	if got := p.content("f.txt"); got != want.String() {
		return fmt.Errorf("file:\n%s\nwant:\n%s", got, want.String())
	}
	return nil
}

// TestOneReplyEditsNeedTheRule shows that the fuzz check catches edits
// that land on moved lines: without the rule, a seed fails.
func TestOneReplyEditsNeedTheRule(t *testing.T) {
	testNoShiftRule = true
	t.Cleanup(func() { testNoShiftRule = false })
	failed := 0
	for _, seed := range oneReplySeeds {
		if err := runOneReply(t, seed); err != nil {
			failed++
			t.Logf("without the rule: %v", err)
		}
	}
	if failed == 0 {
		t.Fatal("every seed passed without the shift rule: the fuzz check would not catch edits on moved lines")
	}
}

package fsedit

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// benchSizeMB is the size of the benchmarks' file; FSEDIT_BENCH_MB
// overrides it (the figure is 200).
func benchSizeMB() int {
	if n, err := strconv.Atoi(os.Getenv("FSEDIT_BENCH_MB")); err == nil && n > 0 {
		return n
	}
	return 50
}

// benchProject makes a project holding big.txt of ~100-byte lines.
func benchProject(b *testing.B) (*project, int) {
	b.Helper()
	dir := b.TempDir()
	lines := benchSizeMB() * 10000
	f, err := os.Create(filepath.Join(dir, "big.txt"))
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 1<<20)
	for i := 1; i <= lines; i++ {
		buf = fmt.Appendf(buf, "line %08d: the quick brown fox jumps over the lazy dog, again and again and again.\n", i)
		if len(buf) > 1<<20-200 {
			f.Write(buf)
			buf = buf[:0]
		}
	}
	f.Write(buf)
	f.Close()
	root := sandbox.NewRoot(dir, sandbox.Options{BackupMaxBytes: -1})
	b.Cleanup(func() { root.Close() })
	sess := NewSession(root)
	ctx := tools.WithInfo(b.Context(), tools.CallInfo{ChangeSet: "bench"})
	p := &project{dir: dir, root: root, sess: sess, reg: tools.NewRegistry(sess.Tools()...), ctx: ctx}
	return p, lines
}

func benchCall(b *testing.B, p *project, name string, args map[string]string) {
	b.Helper()
	res, err := p.reg.Call(p.ctx, name, args)
	if err != nil || res.IsError() {
		b.Fatalf("%s: %v %s %s", name, err, res.Code, res.Message)
	}
}

// BenchmarkPartialWriteMiddle replaces 10 lines in the middle of a large
// file (default 50 MB; FSEDIT_BENCH_MB=200 for the figure).
func BenchmarkPartialWriteMiddle(b *testing.B) {
	p, lines := benchProject(b)
	mid := lines / 2
	benchCall(b, p, "read_file", kv("file_path", "big.txt", "start_line", sandbox.Itoa(mid), "end_line", sandbox.Itoa(mid+9)))
	args := kv("operation_type", "partial", "file_path", "big.txt", "start_line", sandbox.Itoa(mid), "end_line", sandbox.Itoa(mid+9),
		"content", "r1\nr2\nr3\nr4\nr5\nr6\nr7\nr8\nr9\nr10\n")
	b.SetBytes(int64(lines) * 100)
	b.ReportAllocs()
	for b.Loop() {
		benchCall(b, p, "write_file", args)
		// Keep the backups from filling the disk: each is a hard link to a
		// whole old version.
		os.RemoveAll(filepath.Join(p.dir, ".agent"))
	}
}

// BenchmarkReadRange reads 1,000 lines in the middle of a large file.
func BenchmarkReadRange(b *testing.B) {
	p, lines := benchProject(b)
	mid := lines / 2
	args := kv("file_path", "big.txt", "start_line", sandbox.Itoa(mid), "end_line", sandbox.Itoa(mid+999))
	b.SetBytes(int64(lines) * 100)
	b.ReportAllocs()
	for b.Loop() {
		benchCall(b, p, "read_file", args)
	}
}

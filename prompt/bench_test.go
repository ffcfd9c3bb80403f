package prompt

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// bigTree generates a project of 100,000 files: 10 packages × 10 folders
// × 10 leaf folders × 100 files, with a .gitignore at the root and in each
// package and an .agentignore in half the folders, so that about a third
// of the files are ignored by rules at three depths (69,361 remain).
func bigTree(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	mkdir := func(rel string) {
		if err := os.MkdirAll(filepath.Join(dir, rel), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	write(".gitignore", "*.tmp\n/build/\nlogs/\n!logs/keep.log\n**/cache/\n")
	for p := range 10 {
		pkg := fmt.Sprintf("pkg%02d", p)
		mkdir(pkg)
		write(pkg+"/.gitignore", "*.gen.go\n!keep.gen.go\n/sub0[0-2]/leaf09/\n")
		for s := range 10 {
			sub := fmt.Sprintf("%s/sub%02d", pkg, s)
			mkdir(sub)
			if s%2 == 0 {
				write(sub+"/.agentignore", "*.bak\nleaf0[5]/\n")
			}
			for l := range 10 {
				leaf := fmt.Sprintf("%s/leaf%02d", sub, l)
				mkdir(leaf)
				for f := range 100 {
					var name string
					switch f % 10 {
					case 0:
						name = fmt.Sprintf("f%03d.tmp", f)
					case 1:
						name = fmt.Sprintf("f%03d.gen.go", f)
					case 2:
						name = fmt.Sprintf("f%03d.bak", f)
					default:
						name = fmt.Sprintf("f%03d.go", f)
					}
					write(leaf+"/"+name, "")
				}
			}
		}
	}
	return dir
}

// BenchmarkTree100k compares BuildTree with `find DIR -type f` (a whole
// process, as a user would run it) on the generated tree, warm cache. The
// two run alternately so that load on the machine affects both alike;
// tree/find is the ratio of their total times.
func BenchmarkTree100k(b *testing.B) {
	dir := bigTree(b)
	findPath, findErr := exec.LookPath("find")
	runFind := func() {
		cmd := exec.Command(findPath, ".", "-type", "f")
		cmd.Dir = dir
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
	build := func() Tree {
		t, err := BuildTree(b.Context(), dir, TreeOptions{})
		if err != nil {
			b.Fatal(err)
		}
		return t
	}
	// Warm the cache, and check the tree is what the budget allows.
	t := build()
	if t.Lines > DefaultBudget {
		b.Fatalf("tree has %d lines, budget %d", t.Lines, DefaultBudget)
	}
	if findErr == nil {
		runFind()
	}
	var inTree, inFind time.Duration
	for b.Loop() {
		start := time.Now()
		build()
		inTree += time.Since(start)
		if findErr == nil {
			b.StopTimer()
			start = time.Now()
			runFind()
			inFind += time.Since(start)
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(t.Files), "files")
	if inFind > 0 {
		b.ReportMetric(float64(inFind.Microseconds())/float64(b.N)/1000, "find-ms/op")
		b.ReportMetric(float64(inTree)/float64(inFind), "tree/find")
	}
}

// BenchmarkWalkDir100k is the in-process baseline: filepath.WalkDir over
// the same tree, with no ignore rules and no budget.
func BenchmarkWalkDir100k(b *testing.B) {
	dir := bigTree(b)
	for b.Loop() {
		n := 0
		filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				n++
			}
			return nil
		})
	}
}

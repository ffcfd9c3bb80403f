//go:build unix

package skills

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/agentcli/agent/tools/sandbox"
)

// BenchmarkDiscover is what finding skills adds to every conversation's
// start: a project with none, and one with 20 in .agents/skills.
func BenchmarkDiscover(b *testing.B) {
	for _, n := range []int{0, 20} {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			files := map[string]string{"README.md": "x\n"}
			for i := range n {
				name := fmt.Sprintf("skill-%02d", i)
				files[".agents/skills/"+name+"/SKILL.md"] = skillFile(name, "Does thing "+name+". Use when the task needs it.", "Steps.\n")
			}
			write(b, dir, files)
			root := sandbox.NewRoot(dir, sandbox.Options{})
			defer root.Close()
			user := filepath.Join(b.TempDir(), "skills")
			b.ReportAllocs()
			for b.Loop() {
				if set := Discover(Sources{Project: root, UserDir: user}); len(set.Skills) != n {
					b.Fatalf("%d skills, want %d", len(set.Skills), n)
				}
			}
		})
	}
}

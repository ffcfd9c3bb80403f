// Package taskproject is the 31-file project of the read-then-answer
// task, the one the start-up figures and the first request's budget are
// measured on (cmd/agent/bench, cmd/agent's TestFirstRequestBudget), and
// the peers were compared on.
package taskproject

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write writes the project into dir: a README, Go sources, docs, a
// module file, a Makefile and a .gitignore, 31 files in a few folders.
func Write(dir string) error {
	files := map[string]string{
		"README.md":  "# greeter\n\nA small Go service that greets people over HTTP.\n\n## Build\n\n    go build ./...\n",
		".gitignore": "/bin/\n*.log\n",
		"go.mod":     "module example.com/greeter\n\ngo 1.22\n",
		"Makefile":   "build:\n\tgo build ./...\n",
	}
	for i := range 12 {
		files[fmt.Sprintf("internal/greet/greet%02d.go", i)] = fmt.Sprintf("package greet\n\n// Hello%d greets.\nfunc Hello%d(name string) string { return \"hello \" + name }\n", i, i)
	}
	for i := range 8 {
		files[fmt.Sprintf("cmd/greeter/part%d.go", i)] = "package main\n"
	}
	for i := range 7 {
		files[fmt.Sprintf("docs/page%d.md", i)] = fmt.Sprintf("# Page %d\n\nSome documentation.\n", i)
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// needGopls finds gopls (on PATH, or in Go's bin folder, where go install
// puts it); under CI a missing gopls fails the test, elsewhere skips it.
func needGopls(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("gopls"); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(out)), "bin", "gopls")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("gopls is missing: .ci/run installs it (go install golang.org/x/tools/gopls@v0.23.0)")
	}
	t.Skip("gopls is not installed: go install golang.org/x/tools/gopls@v0.23.0")
	return ""
}

// needPyright finds pyright-langserver where .ci/run installs it from
// the npm registry (.ci/npm); under CI a missing one fails the test.
func needPyright(t testing.TB) string {
	t.Helper()
	p, err := filepath.Abs("../../.ci/npm/node_modules/.bin/pyright-langserver")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("pyright-langserver is missing: .ci/run installs it (npm ci in .ci/npm)")
		}
		t.Skip("pyright is not installed: run npm ci in .ci/npm")
	}
	return p
}

// writeFiles makes a project of files (path -> content) in a new folder.
func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, text := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// testManager is a Manager of the project at root with the server spec,
// its program started as it is (the sandbox is agent/app's, tested
// there), with waits long enough for a loaded machine: a check ends on
// its events, not on them.
func testManager(t testing.TB, root string, spec Spec) *Manager {
	t.Helper()
	m := New(Options{
		Root:    root,
		Servers: []Spec{spec},
		Command: func(s Spec, dir string) (*exec.Cmd, error) {
			cmd := exec.Command(s.Command, s.Args...)
			cmd.Dir = dir
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			return cmd, nil
		},
		Read: func(rel string, max int64) ([]byte, int64, error) {
			b, err := os.ReadFile(filepath.Join(root, rel))
			return b, int64(len(b)), err
		},
		Quiet:     300 * time.Millisecond,
		FirstWait: 2 * time.Minute,
		Wait:      time.Minute,
	})
	t.Cleanup(func() { m.Close() })
	return m
}

// goSpec is gopls at path.
func goSpec(path string) Spec {
	s := Known[0]
	s.Command = path
	return s
}

package audio_test

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/agentcli/agent/internal/atomicfile"
	"github.com/agentcli/agent/tools"
)

// rootWriter is the sandboxed writer for these tests, until the project's
// own (fsedit's Put) is wired in by cmd/agent: an os.Root keeps every path
// inside the folder, .agent and .git are protected, a replaced file is
// copied to backups/ first, and the write is atomic.
type rootWriter struct {
	dir     string
	backups []string // what was backed up, as "rel=content"
}

func (w *rootWriter) Check(_ context.Context, rel string) (*tools.Result, error) {
	clean := path.Clean(filepath.ToSlash(rel))
	if filepath.IsAbs(rel) || !filepath.IsLocal(rel) {
		r := tools.Errorf(tools.CodePathOutsideRoot, "path %q is outside the project", rel)
		return &r, nil
	}
	first, _, _ := strings.Cut(clean, "/")
	if first == ".agent" || first == ".git" {
		r := tools.Errorf(tools.CodePathOutsideRoot, "path %q is in the protected folder %s", rel, first)
		return &r, nil
	}
	return nil, nil
}

func (w *rootWriter) Put(ctx context.Context, rel string, data []byte) (bool, *tools.Result, error) {
	if r, err := w.Check(ctx, rel); r != nil || err != nil {
		return false, r, err
	}
	root, err := os.OpenRoot(w.dir)
	if err != nil {
		return false, nil, err
	}
	defer root.Close()
	if err := root.MkdirAll(path.Dir(rel), 0o755); err != nil {
		return false, nil, err
	}
	old, err := root.ReadFile(rel)
	replaced := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, nil, err
	}
	if replaced {
		w.backups = append(w.backups, rel+"="+string(old))
	}
	target := filepath.Join(w.dir, filepath.FromSlash(rel))
	return replaced, nil, atomicfile.WriteFile(target, 0o644, func(f io.Writer) error { _, err := f.Write(data); return err })
}

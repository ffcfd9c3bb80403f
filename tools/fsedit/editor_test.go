package fsedit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentcli/agent/tools"
)

// fakeEditor is an editor's buffers: the text it holds per absolute
// path, which may differ from the disk (unsaved), and whether a write
// also saves the file.
type fakeEditor struct {
	mu      sync.Mutex
	buffers map[string]string
	saves   bool
	writes  []string
}

func (e *fakeEditor) read(_ context.Context, abs string) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if text, ok := e.buffers[abs]; ok {
		return text, nil
	}
	b, err := os.ReadFile(abs)
	return string(b), err
}

func (e *fakeEditor) write(_ context.Context, abs, text string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.buffers[abs] = text
	e.writes = append(e.writes, abs)
	if e.saves {
		return os.WriteFile(abs, []byte(text), 0o644)
	}
	return nil
}

func withEditor(p *project, saves bool) *fakeEditor {
	e := &fakeEditor{buffers: map[string]string{}, saves: saves}
	p.sess.UseEditor(Editor{Read: e.read, Write: e.write})
	return e
}

// The model reads an unsaved buffer, its edit goes to the editor, and
// the text it replaced is backed up: undo puts the saved file back.
func TestEditorUnsavedBufferIsWhatTheModelReads(t *testing.T) {
	p := newProject(t, map[string]string{"a.txt": "on disk\n"})
	ed := withEditor(p, true)
	abs := filepath.Join(p.dir, "a.txt")
	ed.buffers[abs] = "unsaved one\nunsaved two\n"

	res := p.read("a.txt")
	wantOK(t, res)
	if res.Content != "unsaved one\nunsaved two\n" {
		t.Fatalf("read = %q, want the buffer's text", res.Content)
	}
	wantOK(t, p.write("partial", "a.txt", "edited two", "start_line", "2", "end_line", "2"))
	if got := ed.buffers[abs]; got != "unsaved one\nedited two\n" {
		t.Errorf("buffer = %q, want the edit made on the buffer's text", got)
	}
	if got := p.content("a.txt"); got != "unsaved one\nedited two\n" {
		t.Errorf("disk = %q, want what the editor saved", got)
	}
	blobs, _ := filepath.Glob(filepath.Join(p.dir, ".agent", "backups", "*", "*"))
	var kept []string
	for _, b := range blobs {
		data, _ := os.ReadFile(b)
		kept = append(kept, string(data))
	}
	if len(kept) != 1 || kept[0] != "unsaved one\nunsaved two\n" {
		t.Errorf("backups = %q, want the buffer's old text", kept)
	}
	if _, err := p.root.Undo(t.Context(), false); err != nil {
		t.Fatalf("undo: %v", err)
	}
	if got := p.content("a.txt"); got != "unsaved one\nunsaved two\n" {
		t.Errorf("after undo the file is %q, want the text before the edit", got)
	}
}

// A person's change in the editor after the model's read makes the write
// stale, as a change on disk does; nothing is handed to the editor.
func TestEditorChangedSinceReadIsStale(t *testing.T) {
	p := newProject(t, map[string]string{"a.txt": "one\n"})
	ed := withEditor(p, false)
	wantOK(t, p.read("a.txt"))
	ed.buffers[filepath.Join(p.dir, "a.txt")] = "one\nperson's line\n"

	wantCode(t, p.write("rewrite", "a.txt", "two\n"), tools.CodeFileStale, "editor")
	if len(ed.writes) != 0 {
		t.Errorf("the editor was handed %v, want nothing", ed.writes)
	}
}

// The guards before the editor: a path outside the project, a secret,
// and a write before a read are refused and never reach the editor.
func TestEditorKeepsTheGuards(t *testing.T) {
	p := newProject(t, map[string]string{"a.txt": "one\n", ".env": "KEY=1\n"})
	ed := withEditor(p, true)
	wantCode(t, p.write("rewrite", "a.txt", "two\n"), tools.CodeFileStale)
	wantCode(t, p.write("create", "../out.txt", "x"), tools.CodePathOutsideRoot)
	if res := p.read(".env"); !res.IsError() {
		t.Errorf("read .env = %q, want a refusal", res.Content)
	}
	if len(ed.writes) != 0 {
		t.Errorf("the editor was handed %v, want nothing", ed.writes)
	}
}

// A new file goes to the editor, its folders made in the project and
// recorded, so that undo removes both.
func TestEditorCreates(t *testing.T) {
	p := newProject(t, nil)
	ed := withEditor(p, true)
	wantOK(t, p.write("create", "sub/new.txt", "hello\n"))
	if len(ed.writes) != 1 || !strings.HasSuffix(ed.writes[0], filepath.Join("sub", "new.txt")) {
		t.Fatalf("editor writes = %v, want sub/new.txt", ed.writes)
	}
	if _, err := p.root.Undo(t.Context(), false); err != nil {
		t.Fatalf("undo: %v", err)
	}
	if _, err := os.Stat(filepath.Join(p.dir, "sub")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after undo sub/ is still there (%v)", err)
	}
}

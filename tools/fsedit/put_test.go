package fsedit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

func TestPut(t *testing.T) {
	p := newProject(t, map[string]string{"old.wav": "RIFF old", "notes.md": "x\n"})
	wav := []byte("RIFF\x00\x00\x00\x00WAVEfmt ")
	opt := sandbox.PutOptions{Extensions: []string{".wav"}}
	res, err := p.root.Put(p.ctx, "audio/out/hello.wav", wav, opt)
	if err != nil || res.Refused != nil {
		t.Fatalf("put: %v %v", err, res.Refused)
	}
	if res.Path != "audio/out/hello.wav" || !res.Created || res.Size != int64(len(wav)) || res.ChangeSet != "cs1" {
		t.Errorf("result %+v", res)
	}
	if got := p.content("audio/out/hello.wav"); got != string(wav) {
		t.Errorf("content %q", got)
	}
	// Existing file: refused without Overwrite; replaced and backed up with it.
	res, _ = p.root.Put(p.ctx, "old.wav", wav, opt)
	if res.Refused == nil || res.Refused.Code != tools.CodeFileExists {
		t.Fatalf("existing without Overwrite: %+v", res)
	}
	opt.Overwrite = true
	if res, err = p.root.Put(p.ctx, "old.wav", wav, opt); err != nil || res.Refused != nil || res.Created {
		t.Fatalf("overwrite: %v %+v", err, res)
	}
	// Refusals the model can fix.
	for _, tc := range []struct{ path, code string }{
		{"notes.md", tools.CodeUnsupportedType},
		{"x.WAV.md", tools.CodeUnsupportedType},
		{"../out.wav", tools.CodePathOutsideRoot},
		{".git/x.wav", tools.CodePathOutsideRoot},
		{".agent/x.wav", tools.CodePathOutsideRoot},
		{"~/x.wav", tools.CodeSchemaInvalid},
		{"a\u200b.wav", tools.CodeSchemaInvalid},
		{strings.Repeat("w", 300) + ".wav", tools.CodeSchemaInvalid},
		{"notes.md/x.wav", tools.CodeFileNotFound},
	} {
		res, err := p.root.Put(p.ctx, tc.path, wav, opt)
		if err != nil {
			t.Errorf("%s: Go error %v", tc.path, err)
			continue
		}
		if res.Refused == nil || res.Refused.Code != tc.code {
			t.Errorf("%s: %+v, want %s", tc.path, res.Refused, tc.code)
		}
	}
	if _, err := p.root.Put(p.ctx, "a.wav", wav, sandbox.PutOptions{}); err == nil {
		t.Error("empty Extensions accepted")
	}
	// Undo of the change set removes the created file and restores the old.
	if _, err := p.root.Undo(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(p.dir, "audio/out/hello.wav")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("undo left the created file: %v", err)
	}
	if got := p.content("old.wav"); got != "RIFF old" {
		t.Errorf("undo: old.wav = %q", got)
	}
	if tf := tempFiles(t, p.dir); len(tf) != 0 {
		t.Errorf("temp files: %v", tf)
	}
}

// TestAgentFolderLinkedOut: .agent or .agent/backups as a symlink is
// refused with a clear message, never followed.
func TestAgentFolderLinkedOut(t *testing.T) {
	for _, link := range []string{".agent", ".agent/backups"} {
		t.Run(link, func(t *testing.T) {
			p := newProject(t, map[string]string{"a.md": "x\n"})
			elsewhere := t.TempDir()
			os.MkdirAll(filepath.Dir(filepath.Join(p.dir, link)), 0o755)
			if err := os.Symlink(elsewhere, filepath.Join(p.dir, link)); err != nil {
				t.Fatal(err)
			}
			wantOK(t, p.read("a.md"))
			wantCode(t, p.write("rewrite", "a.md", "y\n"), tools.CodePathOutsideRoot, link+" is a symlink", "replace the link with a folder")
			wantCode(t, p.write("create", "b.md", "y\n"), tools.CodePathOutsideRoot, "symlink")
			if p.content("a.md") != "x\n" {
				t.Error("the write went through")
			}
			if _, err := os.Stat(filepath.Join(p.dir, "b.md")); err == nil {
				t.Error("the create went through without a backup record")
			}
			if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
				t.Errorf("the link was followed: %v", ents)
			}
			if err := p.root.CheckStateDir("backups"); err == nil || !strings.Contains(err.Error(), "symlink") {
				t.Errorf("CheckStateDir = %v", err)
			}
			res, err := p.root.Put(p.ctx, "c.wav", []byte("x"), sandbox.PutOptions{Extensions: []string{"wav"}})
			if err != nil || res.Refused == nil || res.Refused.Code != tools.CodePathOutsideRoot {
				t.Errorf("put: %v %+v", err, res.Refused)
			}
		})
	}
}

func TestForgetCall(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": numberedLines(10)})
	p.ctx = tools.WithInfo(p.t.Context(), tools.CallInfo{CallID: "r1", ChangeSet: "x1"})
	wantOK(t, p.read("a.md"))
	p.ctx = tools.WithInfo(p.t.Context(), tools.CallInfo{CallID: "r2", ChangeSet: "x2"})
	wantOK(t, p.read("a.md", "start_line", "8", "end_line", "10"))
	p.sess.ForgetCall("r1")
	p.ctx = tools.WithInfo(p.t.Context(), tools.CallInfo{CallID: "w1", ChangeSet: "x3"})
	wantCode(t, p.write("rewrite", "a.md", "x\n"), tools.CodeFileStale, "not read it whole")
	wantCode(t, p.write("partial", "a.md", "x\n", "start_line", "2", "end_line", "2"), tools.CodeFileStale)
	wantOK(t, p.write("partial", "a.md", "nine\n", "start_line", "9", "end_line", "9"))
	p.sess.ForgetCall("r2")
	p.sess.ForgetCall("w1")
	wantCode(t, p.write("partial", "a.md", "x\n", "start_line", "9", "end_line", "9"), tools.CodeFileStale, "not read")
}

func TestReadBudget(t *testing.T) {
	budget := 100
	p := newProjectOpts(t, map[string]string{"a.md": numberedLines(100), "small.md": "tiny\n", "many.md": strings.Repeat("x\n", 3000), "wide.md": strings.Repeat("w", 500) + "\n"},
		sandbox.Options{ReadBudget: func() int { return budget }})
	res := p.read("a.md")
	wantOK(t, res)
	// "line N\n" is 7 bytes up to 9, 8 up to 99: 9*7 + 4*8 = 95 fit in 100.
	if meta(res, "range") != "1-13" || meta(res, "next_line") != "14" || !strings.Contains(res.Message, "continue with start_line 14") {
		t.Fatalf("cut read: %s %v", res.Message, res.Metadata)
	}
	if res.Content != numberedLines(13) {
		t.Errorf("content %q", res.Content)
	}
	// A partial write of what it showed works; a rewrite is refused.
	wantOK(t, p.write("partial", "a.md", "one\n", "start_line", "1", "end_line", "1"))
	wantCode(t, p.write("rewrite", "a.md", "x\n"), tools.CodeFileTooLarge, "replace or partial")
	wantOK(t, p.read("small.md"))
	// Never more than maxBudgetLines lines, however short.
	budget = 5000
	res = p.read("many.md")
	if meta(res, "range") != "1-2000" || meta(res, "next_line") != "2001" {
		t.Errorf("line cap: %s %v", res.Message, res.Metadata)
	}
	// Ranges are not cut; a first line over the budget says so.
	budget = 100
	wantOK(t, p.read("a.md", "start_line", "1", "end_line", "50"))
	wantCode(t, p.read("wide.md"), tools.CodeFileTooLarge, "line 1")
	budget = 0
	if res := p.read("a.md"); meta(res, "next_line") != "" {
		t.Errorf("no budget, still cut: %v", res.Metadata)
	}
}

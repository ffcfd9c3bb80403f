package chat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools/programs"
)

// writeProgram writes an executable shell script.
func writeProgram(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// Ctrl+V runs the clipboard program found outside the project, with a
// PATH without the project's folders, never the one a command planted
// in an activated .venv/bin.
func TestClipboardProgramIsTrusted(t *testing.T) {
	base := t.TempDir()
	sys, proj := filepath.Join(base, "sys"), filepath.Join(base, "proj")
	venv := filepath.Join(proj, ".venv", "bin")
	marker := filepath.Join(base, "planted-ran")
	writeProgram(t, filepath.Join(venv, "xclip"), "touch "+marker+"\necho planted\n")
	writeProgram(t, filepath.Join(venv, "xsel"), "touch "+marker+"\necho planted\n")
	writeProgram(t, filepath.Join(sys, "xclip"), "echo \"trusted $*\"\necho \"$PATH\"\n")
	path := venv + ":" + sys + ":/usr/bin:/bin"
	progs := programs.New(programs.Options{Path: path, Untrusted: []programs.Place{{Dir: proj, What: "inside the project"}}})
	noWayland := func(string) string { return "" }
	got, err := readClipboard(t.Context(), progs, []string{"PATH=" + path, "HOME=" + base}, noWayland)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "trusted -out -selection clipboard\n") || strings.Contains(got, venv) {
		t.Errorf("clipboard = %q; want the trusted xclip's, with a PATH without %s", got, venv)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the planted clipboard program ran")
	}

	// Only planted ones: none runs, and the error says how to paste.
	progs = programs.New(programs.Options{Path: venv, Untrusted: []programs.Place{{Dir: proj, What: "inside the project"}}})
	if _, err := readClipboard(t.Context(), progs, nil, noWayland); err == nil || !strings.Contains(err.Error(), "Ctrl+Shift+V") {
		t.Errorf("only planted programs: err = %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the planted clipboard program ran")
	}
}

// The textarea's own clipboard keys (atotto/clipboard, plain PATH) are
// off: Ctrl+V is the chat's.
func TestTextareaClipboardKeysOff(t *testing.T) {
	e := newEditor(80)
	if e.KeyMap.Paste.Enabled() {
		t.Error("the textarea's own paste key is on")
	}
}

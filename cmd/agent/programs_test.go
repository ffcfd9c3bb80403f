package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/config"
)

// TestEditorFromTrustedPlaces: the editor's program word is found as
// every helper program is; one planted in a project folder on PATH is not
// used, a real one further on is.
func TestEditorFromTrustedPlaces(t *testing.T) {
	proj := t.TempDir()
	sys := t.TempDir()
	for _, p := range []string{filepath.Join(proj, "bin", "myed"), filepath.Join(sys, "myed")} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755)
	}
	f := newFactory(&streams{})
	f.env = map[string]string{"PATH": filepath.Join(proj, "bin") + ":" + sys, "EDITOR": "myed --wait", "HOME": t.TempDir()}
	progs := f.programs(proj, config.Defaults())
	got, err := progs.Editor(f.env)
	if want := []string{filepath.Join(sys, "myed"), "--wait"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Editor = %q, %v; want %q", got, err, want)
	}
	if f.programs(proj, config.Defaults()) != progs {
		t.Error("a second resolver was made for the same project")
	}
	f.env["PATH"] = filepath.Join(proj, "bin")
	f.progs = nil
	_, err = f.programs(proj, config.Defaults()).Editor(f.env)
	if err == nil || !strings.Contains(err.Error(), "myed found only in "+filepath.Join(proj, "bin")+", inside the project") {
		t.Errorf("Editor with only the plant = %v", err)
	}
}

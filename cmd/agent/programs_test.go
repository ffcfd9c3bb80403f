package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/config"
)

func TestShellWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		err  string
	}{
		{"vi", []string{"vi"}, ""},
		{"  code  --wait ", []string{"code", "--wait"}, ""},
		{`sh -c 'echo "# x" > "$1"' sh`, []string{"sh", "-c", `echo "# x" > "$1"`, "sh"}, ""},
		{`"/opt/My Editor/ed" -n`, []string{"/opt/My Editor/ed", "-n"}, ""},
		{`emacs\ client -t`, []string{"emacs client", "-t"}, ""},
		{`vim -c "set tw=72 \"x\""`, []string{"vim", "-c", `set tw=72 "x"`}, ""},
		{`''`, []string{""}, ""},
		{"vi; rm -rf ~", nil, "; is not supported"},
		{"vi $(evil)", nil, "$ is not supported"},
		{`vi "$HOME"`, nil, "$ inside double quotes"},
		{"vi 'open", nil, "not closed"},
		{`vi "open`, nil, "not closed"},
		{`vi \`, nil, "backslash"},
	} {
		got, err := shellWords(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("shellWords(%q) = %q, %v; want an error holding %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("shellWords(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

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
	got, err := editorCommand(f.env, progs)
	if want := []string{filepath.Join(sys, "myed"), "--wait"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("editorCommand = %q, %v; want %q", got, err, want)
	}
	if f.programs(proj, config.Defaults()) != progs {
		t.Error("a second resolver was made for the same project")
	}
	f.env["PATH"] = filepath.Join(proj, "bin")
	f.progs = nil
	_, err = editorCommand(f.env, f.programs(proj, config.Defaults()))
	if err == nil || !strings.Contains(err.Error(), "myed found only in "+filepath.Join(proj, "bin")+", inside the project") {
		t.Errorf("editorCommand with only the plant = %v", err)
	}
}

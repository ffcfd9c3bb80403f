package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/config"
)

// TestProviderNamesFromPresets: every command's --provider flag lists
// the presets, and the chat's /model PROVIDER/NAME knows each of them,
// so that a new preset appears everywhere at once.
func TestProviderNamesFromPresets(t *testing.T) {
	root := newRootCmd(newFactory(&streams{}))
	for _, path := range [][]string{{"run"}, {"chat"}, {"config"}} {
		c, _, err := root.Find(path)
		if err != nil {
			t.Fatal(err)
		}
		f := c.Flags().Lookup("provider")
		if f == nil {
			t.Fatalf("%s has no --provider", path[0])
		}
		for _, name := range config.PresetNames() {
			if !strings.Contains(f.Usage, name) {
				t.Errorf("%s --provider help %q does not name %s", path[0], f.Usage, name)
			}
			if !knownProvider(name) {
				t.Errorf("knownProvider(%q) = false", name)
			}
		}
	}
	if knownProvider("bogus") {
		t.Error(`knownProvider("bogus") = true`)
	}
}

// TestNoProviderNamesWrittenOut: the command code never spells a preset
// name as a string of its own (a list that a new preset would miss);
// it asks the presets.
func TestNoProviderNamesWrittenOut(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range config.PresetNames() {
		names = append(names, regexp.QuoteMeta(n))
	}
	// A quoted name on its own; words in help texts and examples
	// ("agent config --provider ollama") are prose, not lists.
	quoted := regexp.MustCompile(`"(` + strings.Join(names, "|") + `)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if quoted.MatchString(line) {
				t.Errorf("%s:%d writes out a provider name: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}

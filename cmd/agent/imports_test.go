package main

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/agentcli/agent"

// deps lists the non-standard packages pkg depends on, directly or not.
func nonStdDeps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", module+"/"+pkg).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pkg, err)
	}
	var deps []string
	for _, l := range strings.Fields(string(out)) {
		if l != module+"/"+pkg {
			deps = append(deps, l)
		}
	}
	return deps
}

// TestImportRules keeps the layering of architecture.md: lower packages
// never reach up, and the loop never depends on a concrete provider, the
// CLI or a store.
func TestImportRules(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	rules := []struct {
		pkg     string
		allowed []string // prefixes of allowed non-standard dependencies
		banned  []string // prefixes never allowed
	}{
		{pkg: "agent/xmlcall", allowed: []string{"github.com/beevik/etree"}},
		{pkg: "prompt", allowed: []string{"golang.org/x/sys"}},
		{pkg: "agent/llm", allowed: nil},
		// Image decoding and scaling only: no provider, no tool.
		{pkg: "agent/llm/imagefit", allowed: []string{"golang.org/x/image/", module + "/agent/llm"}},
		// The program resolver is a leaf: it decides what runs outside the
		// sandbox, and depends on nothing that could widen that.
		{pkg: "tools/programs", allowed: nil},
		{pkg: "agent/config", allowed: []string{"github.com/BurntSushi/toml"}},
		{pkg: "tools", banned: []string{module + "/agent", module + "/cmd", module + "/tools/"}},
		{pkg: "tools/fsedit", banned: []string{module + "/agent", module + "/cmd", module + "/prompt"}},
		{pkg: "tools/shell/cmdline", allowed: []string{"mvdan.cc/sh/v3/"}}, // a leaf: the shell parser only
		// The jobs know no shell: package shell runs their commands.
		{pkg: "tools/jobs", banned: []string{module + "/agent", module + "/cmd", module + "/prompt", module + "/tools/shell", module + "/tools/fsedit"}},
		{pkg: "tools/shell", banned: []string{module + "/agent", module + "/cmd", module + "/prompt"}},
		{pkg: "tools/web", allowed: []string{module + "/tools", "golang.org/x/net/html"}},
		{pkg: "agent", banned: []string{
			"github.com/spf13/cobra", "github.com/charmbracelet", "charm.land", "modernc.org/sqlite", "github.com/jackc/pgx",
			"google.golang.org/genai", "github.com/openai", "github.com/anthropics",
			module + "/agent/llm/gemini", module + "/agent/llm/openai", module + "/agent/llm/anthropic", module + "/agent/llm/ollama",
			module + "/tools/fsedit", module + "/cmd"}},
	}
	for _, r := range rules {
		for _, d := range nonStdDeps(t, r.pkg) {
			if r.allowed != nil || r.banned == nil {
				ok := false
				for _, a := range append(r.allowed, module+"/"+r.pkg+"/") {
					ok = ok || strings.HasPrefix(d, a)
				}
				if !ok {
					t.Errorf("%s depends on %s; it may use only the standard library and %v", r.pkg, d, r.allowed)
				}
			}
			for _, b := range r.banned {
				if strings.HasPrefix(d, b) {
					t.Errorf("%s must not depend on %s (it reaches %s)", r.pkg, b, d)
				}
			}
		}
	}
}

package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/agentcli/agent"

// importRule is what one package may depend on, directly or not. Project
// packages are named without the module path: "tools" is that package
// alone, "tools/..." it and everything under it (a package's own
// subpackages too must be named: "agent/..." would let the loop reach
// every provider).
type importRule struct {
	// project are the project's packages it may depend on.
	project []string
	// vendors are the third-party module paths it may depend on
	// (prefixes); nil is none, unless anyVendor.
	vendors []string
	// anyVendor allows whatever a provider's SDK or a driver brings
	// along, except banned.
	anyVendor bool
	banned    []string
}

// Third-party modules only the top of the program may bring in: the CLI,
// the TUI, the stores' drivers, the providers' SDKs, the MCP SDK.
var (
	cli       = []string{"github.com/spf13/"}
	tuiKit    = []string{"charm.land/", "github.com/charmbracelet/"}
	drivers   = []string{"modernc.org/sqlite", "github.com/jackc/pgx"}
	sdks      = []string{"google.golang.org/genai", "github.com/openai/", "github.com/anthropics/"}
	mcpSDK    = []string{"github.com/modelcontextprotocol/"}
	notTop    = slices.Concat(cli, tuiKit)
	notOthers = slices.Concat(cli, tuiKit, drivers, mcpSDK)
)

// importRules is the layering of ARCHITECTURE.md, one rule for every
// package of the module: lower packages never reach up, the loop never
// depends on a concrete provider, the CLI or a store, and the small
// shared helpers (internal/...) depend on the standard library alone.
// A new package needs a rule here: TestImportRules fails for a package
// without one.
var importRules = map[string]importRule{
	// The shared leaves: the standard library only.
	"internal/termtext":    {},
	"internal/atomicfile":  {},
	"internal/backoff":     {},
	"internal/taskproject": {},
	"internal/secretval":   {},
	"internal/dirent":      {},

	"agent/xmlcall": {vendors: []string{"github.com/beevik/etree"}},
	// The hooks: programs started through a function the application
	// gives (the sandbox is its to decide), on the standard library.
	"agent/hooks":  {},
	"agent/config": {project: []string{"internal/..."}, vendors: []string{"github.com/BurntSushi/toml"}},
	"prompt":       {project: []string{"internal/..."}, vendors: []string{"golang.org/x/sys"}},

	// The neutral model types, and each provider beside the others.
	"agent/llm":           {project: []string{"internal/..."}},
	"agent/llm/llmtest":   {project: []string{"agent/llm", "internal/..."}, vendors: []string{"golang.org/x/image/"}},
	"agent/llm/ollama":    {project: []string{"agent/llm", "internal/..."}},
	"agent/llm/gemini":    {project: []string{"agent/llm", "internal/..."}, anyVendor: true, banned: slices.Concat(notOthers, []string{"github.com/openai/", "github.com/anthropics/"})},
	"agent/llm/openai":    {project: []string{"agent/llm", "internal/..."}}, // like ollama, a client of its wire over net/http: no SDK
	"agent/llm/anthropic": {project: []string{"agent/llm", "internal/..."}}, // the same
	// Image decoding and scaling only: no provider, no tool.
	"agent/llm/imagefit": {project: []string{"agent/llm", "internal/..."}, vendors: []string{"golang.org/x/image/"}},
	// The one package that knows every provider: it builds the
	// configured one.
	"agent/llm/providers": {project: []string{"agent/llm/...", "agent/config", "internal/..."}, anyVendor: true, banned: notOthers},

	// The loop: no CLI, TUI, store, concrete provider or file sandbox.
	"agent": {project: []string{"agent/llm", "agent/llm/imagefit", "agent/hooks", "agent/xmlcall", "tools", "internal/..."}, vendors: []string{"github.com/beevik/etree", "golang.org/x/image/"}},
	// The conversation and the self-checks run on the loop, the prompt
	// and the tools; never the CLI, the TUI or a concrete provider (the
	// speech engine brings its own SDK).
	"agent/conversation": {project: []string{"agent", "agent/config", "agent/llm", "agent/llm/imagefit", "agent/hooks", "agent/xmlcall", "prompt", "tools", "tools/...", "tts", "internal/..."}, anyVendor: true, banned: notTop},
	// The composition root: it builds conversations, their tools and
	// what agent serve offers from the configuration; like the
	// conversation, never the CLI, the TUI or a concrete provider.
	"agent/app":       {project: []string{"agent", "agent/conversation", "agent/config", "agent/llm", "agent/llm/imagefit", "agent/hooks", "agent/xmlcall", "prompt", "tools", "tools/...", "tts", "internal/..."}, anyVendor: true, banned: notTop},
	"agent/selfcheck": {project: []string{"agent", "agent/app", "agent/conversation", "agent/config", "agent/llm", "agent/llm/imagefit", "agent/hooks", "agent/xmlcall", "prompt", "tools", "tools/...", "tts", "internal/..."}, anyVendor: true, banned: notTop},
	// The start-up tricks run before everything: the standard library
	// only (package quiet: syscall alone, see its test).
	"agent/startup":       {},
	"agent/startup/quiet": {},
	// The TUI drives a conversation and shows its tools; it never builds
	// a provider (no concrete provider package) and knows no CLI.
	"agent/ui/chat": {project: []string{"agent", "agent/app", "agent/conversation", "agent/config", "agent/llm", "agent/llm/imagefit", "agent/hooks", "agent/xmlcall", "agent/startup/...", "prompt", "tools", "tools/...", "tts", "internal/..."},
		anyVendor: true, banned: cli},
	// agent run's face prints a run's events, shows its waits, asks on
	// the terminal and attaches the person's images to the
	// conversation; like the TUI it builds no provider and knows no
	// CLI, nor the TUI's kit (charm.land/...; x/ansi's character widths
	// are no part of it).
	"agent/ui/run": {project: []string{"agent", "agent/app", "agent/conversation", "agent/config", "agent/llm", "agent/llm/imagefit", "agent/hooks", "agent/xmlcall", "prompt", "tools", "tools/...", "tts", "internal/..."},
		anyVendor: true, banned: slices.Concat(cli, []string{"charm.land/"})},
	// agent acp's face: the Agent Client Protocol (its SDK) over a
	// conversation; like agent run's, no provider and no CLI.
	"agent/ui/editor": {project: []string{"agent", "agent/app", "agent/conversation", "agent/config", "agent/llm", "agent/llm/imagefit", "agent/hooks", "agent/xmlcall", "prompt", "tools", "tools/...", "tts", "internal/..."}, anyVendor: true, banned: notTop},
	// What the model is offered, shown to a person (agent tools, mcp
	// list, prompt --stats): the conversation's catalog, no CLI.
	"agent/ui/catalog": {project: []string{"agent", "agent/app", "agent/conversation", "agent/config", "agent/llm", "agent/llm/imagefit", "agent/hooks", "agent/xmlcall", "prompt", "tools", "tools/...", "tts", "internal/..."}, anyVendor: true, banned: notTop},
	// agent tts's face: the speech engines, their settings from the
	// configuration, no CLI.
	"agent/ui/tts": {project: []string{"agent", "agent/app", "agent/conversation", "agent/config", "agent/llm", "agent/llm/imagefit", "agent/hooks", "agent/xmlcall", "prompt", "tools", "tools/...", "tts", "internal/..."}, anyVendor: true, banned: notTop},
	// The HTTP front: its handlers are passed in.
	"agent/serve": {anyVendor: true, banned: slices.Concat(notTop, drivers, sdks)},

	// The tools: the tools package, and their own leaves.
	"tools": {project: []string{"internal/..."}},
	// The project's sandbox: where a path may go, how a file is opened,
	// replaced atomically, backed up and restored; below every tool that
	// touches a project file.
	"tools/sandbox":        {project: []string{"tools", "tools/sandbox/backup", "internal/..."}, vendors: []string{"golang.org/x/sys"}},
	"tools/sandbox/backup": {project: []string{"internal/..."}},
	// The backups shown to a person: the sandbox's reports, no more.
	"tools/sandbox/backupview": {project: []string{"tools", "tools/sandbox/...", "internal/..."}, vendors: []string{"golang.org/x/sys"}},
	// The four file tools, on the sandbox.
	"tools/fsedit":          {project: []string{"tools", "tools/sandbox/...", "internal/..."}, vendors: []string{"github.com/aymanbagabas/go-udiff", "golang.org/x/sys"}},
	"tools/programs":        {}, // decides what runs outside the sandbox: depends on nothing that could widen that
	"tools/shell":           {project: []string{"tools", "tools/programs", "tools/jobs", "tools/shell/cmdline", "tools/sandbox/backup", "internal/..."}, anyVendor: true, banned: slices.Concat(notTop, sdks, mcpSDK)},
	"tools/shell/cmdline":   {project: []string{"internal/..."}, vendors: []string{"mvdan.cc/sh/v3/"}}, // the shell parser only
	"tools/web":             {project: []string{"tools", "internal/..."}, vendors: []string{"golang.org/x/net/html"}},
	"tools/gitcommit":       {project: []string{"tools", "internal/..."}}, // git outside the sandbox: nothing else
	"tools/todo":            {project: []string{"tools", "internal/..."}},
	"tools/ask":             {project: []string{"tools", "internal/..."}},
	"tools/mcptool":         {project: []string{"tools", "tools/programs", "internal/..."}, anyVendor: true, banned: slices.Concat(notTop, drivers, sdks)},
	"tools/notes":           {project: []string{"tools", "tools/frontmatter", "internal/..."}, anyVendor: true, banned: slices.Concat(notTop, sdks, mcpSDK)},
	"tools/notes/embedding": {project: []string{"internal/..."}, anyVendor: true, banned: slices.Concat(notTop, drivers, mcpSDK, []string{"github.com/openai/", "github.com/anthropics/"})},
	"tools/notes/notesview": {project: []string{"tools", "tools/notes", "tools/frontmatter", "internal/..."}, anyVendor: true, banned: slices.Concat(notTop, sdks, mcpSDK)}, // notes shown to a person
	"tools/notes/notestest": {project: []string{"tools", "tools/notes/...", "tools/frontmatter", "internal/..."}, anyVendor: true, banned: slices.Concat(notTop, mcpSDK)},
	// The jobs know no shell: package shell runs their commands.
	"tools/jobs": {project: []string{"tools", "internal/..."}, anyVendor: true, banned: slices.Concat(notTop, sdks, mcpSDK)},
	// The jobs shown to a person.
	"tools/jobs/jobsview": {project: []string{"tools", "tools/jobs", "internal/..."}, anyVendor: true, banned: slices.Concat(notTop, sdks, mcpSDK)},
	// The front-matter reader is a leaf: skills and custom commands (the
	// chat) share it.
	"tools/frontmatter": {project: []string{"internal/..."}},
	"tools/skills":      {project: []string{"tools", "tools/sandbox/...", "tools/frontmatter", "internal/..."}, anyVendor: true, banned: slices.Concat(notOthers, sdks)},
	// The sub-agents' files, found and read as skills are; the task tool
	// that runs them is the application's (it runs an agent.Agent).
	"tools/subagents": {project: []string{"tools", "tools/sandbox/...", "tools/frontmatter", "tools/skills", "internal/..."}, anyVendor: true, banned: slices.Concat(notOthers, sdks)},
	"tools/audio":     {project: []string{"tools", "tts", "internal/..."}, anyVendor: true, banned: slices.Concat(notOthers, []string{"github.com/openai/", "github.com/anthropics/"})},

	// The language servers' client and the lsp tool: the standard
	// library's JSON, no protocol package; its sandbox is given.
	"tools/lsp": {project: []string{"tools", "tools/sandbox/...", "internal/..."}, vendors: []string{"golang.org/x/sys"}},

	// Speech: a leaf beside the tools.
	"tts":         {project: []string{"internal/..."}, anyVendor: true, banned: slices.Concat(notOthers, []string{"github.com/openai/", "github.com/anthropics/"})},
	"tts/ttstest": {project: []string{"tts", "internal/..."}},

	// The top: everything below.
	"cmd/agent":       {project: []string{"..."}, anyVendor: true},
	"cmd/agent/bench": {project: []string{"internal/taskproject"}, vendors: []string{"golang.org/x/sys"}},
}

// moduleDeps lists the module's packages (without the module path),
// each with the non-standard packages it depends on, directly or not:
// one go list for all of them.
func moduleDeps(t *testing.T) map[string][]string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}:{{join .Deps \" \"}}{{end}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	std := map[string]bool{}
	stdOut, err := exec.Command("go", "list", "std").Output()
	if err != nil {
		t.Fatalf("go list std: %v", err)
	}
	for _, p := range strings.Fields(string(stdOut)) {
		std[p] = true
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, all, _ := strings.Cut(line, ":")
		rel, ok := strings.CutPrefix(pkg, module)
		if !ok || rel != "" && !strings.HasPrefix(rel, "/") {
			continue // a dependency of the module, listed by -deps
		}
		var ds []string
		for _, d := range strings.Fields(all) {
			if !std[d] {
				ds = append(ds, d)
			}
		}
		deps[strings.TrimPrefix(rel, "/")] = ds
	}
	return deps
}

// matches reports whether project package p is one pattern names.
func matches(p string, patterns []string) bool {
	for _, pat := range patterns {
		if pat == "..." || p == pat {
			return true
		}
		if base, ok := strings.CutSuffix(pat, "/..."); ok && (p == base || strings.HasPrefix(p, base+"/")) {
			return true
		}
	}
	return false
}

// violations are the dependencies of pkg that r does not allow.
func (r importRule) violations(pkg string, deps []string) []string {
	var bad []string
	for _, d := range deps {
		if p, ok := strings.CutPrefix(d, module+"/"); ok {
			if !matches(p, r.project) {
				bad = append(bad, p)
			}
			continue
		}
		allowed := r.anyVendor
		for _, v := range r.vendors {
			allowed = allowed || strings.HasPrefix(d, v)
		}
		for _, b := range r.banned {
			allowed = allowed && !strings.HasPrefix(d, b)
		}
		if !allowed {
			bad = append(bad, d)
		}
	}
	return bad
}

// TestImportRules keeps the layering of ARCHITECTURE.md for every package.
func TestImportRules(t *testing.T) {
	t.Parallel()
	all := moduleDeps(t)
	for pkg, deps := range all {
		r, ok := importRules[pkg]
		if !ok {
			t.Errorf("package %s has no import rule: add one to importRules saying what it may depend on", pkg)
			continue
		}
		for _, d := range r.violations(pkg, deps) {
			t.Errorf("%s depends on %s, which its rule does not allow (importRules)", pkg, d)
		}
	}
	for pkg := range importRules {
		if _, ok := all[pkg]; !ok {
			t.Errorf("importRules names %s, which is not a package of the module", pkg)
		}
	}
}

// TestImportRuleCatchesUpwardImports shows the rules can fail: the loop
// reaching a concrete provider, a tool reaching the loop, a leaf reaching
// a vendor.
func TestImportRuleCatchesUpwardImports(t *testing.T) {
	for _, c := range []struct {
		pkg, dep string
	}{
		{"agent", module + "/agent/llm/gemini"},
		{"agent", "github.com/spf13/cobra"},
		{"tools", module + "/agent"},
		{"tools/fsedit", module + "/cmd/agent"},
		{"internal/termtext", "golang.org/x/text/width"},
		{"agent/llm/gemini", "github.com/openai/openai-go/v3"},
		{"agent/ui/chat", module + "/agent/llm/providers"},
		{"agent/conversation", module + "/agent/app"},
		{"tools/sandbox", module + "/tools/fsedit"},
	} {
		if bad := importRules[c.pkg].violations(c.pkg, []string{c.dep}); len(bad) == 0 {
			t.Errorf("the rule of %s allows %s", c.pkg, c.dep)
		}
	}
	if bad := importRules["agent/llm/gemini"].violations("agent/llm/gemini", []string{module + "/agent/llm", "google.golang.org/genai"}); len(bad) > 0 {
		t.Errorf("the rule of agent/llm/gemini refuses %v", bad)
	}
}

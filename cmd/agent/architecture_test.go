package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The drawing of who may import whom in ARCHITECTURE.md is written from
// importRules, between these two lines; `go test ./cmd/agent -run
// TestArchitecture -update` writes it anew after a rule changes.
const (
	drawingBegin = "<!-- who may import whom: written from importRules (cmd/agent/imports_test.go) by TestArchitectureDrawing -update -->"
	drawingEnd   = "<!-- end of the drawing -->"
)

// vendorGroups name the third-party groups the rules ban, as the drawing
// says them.
var vendorGroups = []struct {
	name     string
	prefixes []string
}{
	{"the CLI", cli},
	{"the TUI kit", tuiKit},
	{"the stores' drivers", drivers},
	{"the providers' SDKs", sdks},
	{"the MCP SDK", mcpSDK},
}

// ruleLevels puts each package of the rules on a floor: above every
// package its rule lets it import (itself and its own subpackages
// aside), the ground floor 0.
func ruleLevels(rules map[string]importRule, pkgs []string) map[string]int {
	level := map[string]int{}
	var floor func(p string, seen map[string]bool) int
	floor = func(p string, seen map[string]bool) int {
		if l, ok := level[p]; ok {
			return l
		}
		if seen[p] {
			return 0
		}
		seen[p] = true
		l := 0
		for _, q := range pkgs {
			if q != p && !strings.HasPrefix(q, p+"/") && matches(q, rules[p].project) {
				l = max(l, floor(q, seen)+1)
			}
		}
		level[p] = l
		return l
	}
	for _, p := range pkgs {
		floor(p, map[string]bool{})
	}
	return level
}

// describeVendors says in words which third-party modules r allows.
func describeVendors(r importRule) string {
	if !r.anyVendor {
		if len(r.vendors) == 0 {
			return ""
		}
		return "modules: " + strings.Join(r.vendors, ", ")
	}
	if len(r.banned) == 0 {
		return "any module"
	}
	left := slices.Clone(r.banned)
	var names []string
	for _, g := range vendorGroups {
		if len(g.prefixes) > 0 && !slices.ContainsFunc(g.prefixes, func(p string) bool { return !slices.Contains(left, p) }) {
			names = append(names, g.name)
			left = slices.DeleteFunc(left, func(p string) bool { return slices.Contains(g.prefixes, p) })
		}
	}
	return "any module but " + strings.Join(append(names, left...), ", ")
}

// importDrawing is the drawing of rules: one package a line, the
// highest floor first, with what it may import of the project and of
// other modules, wrapped at 78 columns.
func importDrawing(rules map[string]importRule) string {
	pkgs := make([]string, 0, len(rules))
	for p := range rules {
		pkgs = append(pkgs, p)
	}
	level := ruleLevels(rules, pkgs)
	slices.SortFunc(pkgs, func(a, b string) int {
		if level[a] != level[b] {
			return level[b] - level[a]
		}
		return strings.Compare(a, b)
	})
	var b strings.Builder
	b.WriteString("```\n")
	last := -1
	for _, p := range pkgs {
		if level[p] != last {
			fmt.Fprintf(&b, "── floor %d ──\n", level[p])
			last = level[p]
		}
		r := rules[p]
		deps := "no package of the project"
		if len(r.project) == 0 && describeVendors(r) == "" {
			deps = "the standard library only"
		}
		if len(r.project) > 0 {
			deps = strings.Join(r.project, ", ")
			if slices.Equal(r.project, []string{"..."}) {
				deps = "every package"
			}
		}
		line := p + " ─► " + deps
		if v := describeVendors(r); v != "" {
			line += "; " + v
		}
		b.WriteString(wrapDrawn(line, 78, strings.Repeat(" ", 4)) + "\n")
	}
	b.WriteString("```\n")
	return b.String()
}

// wrapDrawn wraps s at width on spaces, indenting the lines after the first.
func wrapDrawn(s string, width int, indent string) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > width {
			lines = append(lines, line)
			line = indent + w
			continue
		}
		if line == "" {
			line = w
		} else {
			line += " " + w
		}
	}
	return strings.Join(append(lines, line), "\n")
}

// architectureDoc reads ARCHITECTURE.md at the repository's root.
func architectureDoc(t *testing.T) (string, string) {
	t.Helper()
	path := filepath.Join("..", "..", "ARCHITECTURE.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, string(b)
}

// TestArchitectureDrawing: the drawing of who may import whom in
// ARCHITECTURE.md is the one importRules (TestImportRules) enforces.
func TestArchitectureDrawing(t *testing.T) {
	path, doc := architectureDoc(t)
	i, j := strings.Index(doc, drawingBegin), strings.Index(doc, drawingEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no drawing between %q and %q", path, drawingBegin, drawingEnd)
	}
	want := importDrawing(importRules)
	got := doc[i+len(drawingBegin)+1 : j]
	if got == want {
		return
	}
	if *updateGolden {
		doc = doc[:i+len(drawingBegin)+1] + want + doc[j:]
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the drawing in %s is not importRules's; run go test ./cmd/agent -run TestArchitectureDrawing -update. Want:\n%s", path, want)
}

// TestArchitectureNamesEveryPackage: every package folder of the module
// is named by its path in ARCHITECTURE.md, with its job, outside the
// drawing.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	_, doc := architectureDoc(t)
	if i, j := strings.Index(doc, drawingBegin), strings.Index(doc, drawingEnd); i >= 0 && j > i {
		doc = doc[:i] + doc[j:]
	}
	for pkg := range moduleDeps(t) {
		named := regexp.MustCompile(`(^|[\s(` + "`" + `])` + regexp.QuoteMeta(pkg) + `/?([\s),.:;` + "`" + `]|$)`)
		if !named.MatchString(doc) {
			t.Errorf("ARCHITECTURE.md does not name %s: add it, with its one job, to the list of packages", pkg)
		}
	}
}

// TestArchitectureDrawingFollowsRules shows the drawing can fail: a rule
// changed is a drawing changed.
func TestArchitectureDrawingFollowsRules(t *testing.T) {
	changed := maps.Clone(importRules)
	changed["tools/web"] = importRule{project: append(slices.Clone(importRules["tools/web"].project), "agent")}
	if importDrawing(changed) == importDrawing(importRules) {
		t.Error("a rule changed, yet the drawing did not")
	}
}

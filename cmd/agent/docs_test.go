package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/agentcli/agent/agent/config"
)

// The documentation lives in the repository (README.md, CONTRIBUTING.md,
// docs/): these tests keep it in step with the code it describes.

const repoRoot = "../.."

func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docPages are the repository's markdown documents, by path from the root.
func docPages(t *testing.T) []string {
	t.Helper()
	pages := []string{"README.md", "CONTRIBUTING.md", "ARCHITECTURE.md"}
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		rel, _ := filepath.Rel(repoRoot, d)
		pages = append(pages, filepath.ToSlash(rel))
	}
	return pages
}

var (
	headingRE = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)
	linkRE    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	fenceRE   = regexp.MustCompile("(?ms)^```.*?^```")
)

// anchors are the link targets GitHub makes of a page's headings: lower
// case, punctuation dropped, spaces as hyphens, a repeat numbered.
func anchors(page string) map[string]bool {
	out := map[string]bool{}
	for _, m := range headingRE.FindAllStringSubmatch(fenceRE.ReplaceAllString(page, ""), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		a := b.String()
		for i := 1; out[a]; i++ {
			a = b.String() + "-" + string(rune('0'+i))
		}
		out[a] = true
	}
	return out
}

// Every relative link of the documents leads to a file that exists, and
// an anchor to one of its headings.
func TestDocsLinksResolve(t *testing.T) {
	for _, page := range docPages(t) {
		text := fenceRE.ReplaceAllString(readDoc(t, page), "")
		for _, m := range linkRE.FindAllStringSubmatch(text, -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			target, anchor, _ := strings.Cut(link, "#")
			path := page
			if target != "" {
				path = filepath.ToSlash(filepath.Join(filepath.Dir(page), target))
			}
			b, err := os.ReadFile(filepath.Join(repoRoot, path))
			if err != nil {
				if info, serr := os.Stat(filepath.Join(repoRoot, path)); serr == nil && info.IsDir() && anchor == "" {
					continue
				}
				t.Errorf("%s links to %s, which does not exist", page, link)
				continue
			}
			if anchor != "" && !anchors(string(b))[anchor] {
				t.Errorf("%s links to %s, but %s has no heading #%s", page, link, path, anchor)
			}
		}
	}
}

// The README is a front page: short, showing the chat, and leading to
// every page of docs/.
func TestReadmeIsAFrontPage(t *testing.T) {
	readme := readDoc(t, "README.md")
	if n := strings.Count(readme, "\n"); n > 300 {
		t.Errorf("README.md has %d lines; it is the front page, at most 300: move the details to docs/", n)
	}
	if !strings.Contains(readme, "(docs/chat.svg)") {
		t.Error("README.md does not show the picture of the chat (docs/chat.svg)")
	}
	for _, page := range docPages(t) {
		if strings.HasPrefix(page, "docs/") && !strings.Contains(readme, "("+page+")") {
			t.Errorf("README.md does not link %s", page)
		}
	}
	for _, page := range docPages(t) {
		if strings.HasPrefix(page, "docs/") && !strings.Contains(readDoc(t, page), "\nContents\n") {
			t.Errorf("%s has no contents list at the top", page)
		}
	}
}

// Every "protocol.md §N" a comment of the code cites is a section of
// docs/protocol.md.
func TestProtocolSectionsCitedExist(t *testing.T) {
	protocol := readDoc(t, "docs/protocol.md")
	cite := regexp.MustCompile(`protocol\.md §(\d+[a-z]?)`)
	cited := map[string][]string{}
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range cite.FindAllStringSubmatch(string(b), -1) {
			cited[m[1]] = append(cited[m[1]], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(cited) == 0 {
		t.Fatal("no comment cites protocol.md §N: the search is broken")
	}
	for section, files := range cited {
		if !regexp.MustCompile(`(?m)^## ` + regexp.QuoteMeta(section) + `\. `).MatchString(protocol) {
			t.Errorf("protocol.md §%s, cited in %s, is not a section of docs/protocol.md", section, strings.Join(slices.Compact(files), ", "))
		}
	}
}

// docs/configuration.md's table names every setting the configuration
// reads, and nothing else: a new setting lands with its line, saying who
// may set it.
func TestConfigurationPageNamesEverySetting(t *testing.T) {
	page := readDoc(t, "docs/configuration.md")
	_, table, ok := strings.Cut(page, "\n## Every setting\n")
	if !ok {
		t.Fatal(`docs/configuration.md has no "Every setting" section`)
	}
	if i := strings.Index(table, "\n## "); i >= 0 {
		table = table[:i]
	}
	var rows []string
	for _, l := range strings.Split(table, "\n") {
		if strings.HasPrefix(l, "| `") {
			name := strings.SplitN(l[3:], "`", 2)[0]
			rows = append(rows, strings.ReplaceAll(name, `"`, ""))
		}
	}
	var keys []string
	settingKeys(reflect.TypeOf(config.Config{}), "", &keys)
	covers := func(row, key string) bool { return key == row || strings.HasPrefix(key, row+".") }
	for _, k := range keys {
		if !slices.ContainsFunc(rows, func(r string) bool { return covers(r, k) }) {
			t.Errorf("setting %s is not in the table of docs/configuration.md", k)
		}
	}
	for _, r := range rows {
		if !slices.ContainsFunc(keys, func(k string) bool { return covers(r, k) }) {
			t.Errorf("docs/configuration.md lists %s, which is no setting", r)
		}
	}
}

// settingKeys lists the dotted names of the settings of struct type t,
// a map's keys written NAME (models.NAME.reasoning, programs.NAME).
func settingKeys(t reflect.Type, prefix string, out *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, opt, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "" && opt == "remain" { // the table's other keys: [lsp.NAME]
			settingKeys(f.Type.Elem(), prefix+"NAME.", out)
			continue
		}
		if name == "" || name == "-" {
			continue
		}
		key := prefix + name
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case ft.Kind() == reflect.Struct && ft.PkgPath() != "time":
			settingKeys(ft, key+".", out)
		case ft.Kind() == reflect.Map && ft.Elem().Kind() == reflect.Struct:
			settingKeys(ft.Elem(), key+".NAME.", out)
		case ft.Kind() == reflect.Map:
			*out = append(*out, key+".NAME")
		default:
			*out = append(*out, key)
		}
	}
}

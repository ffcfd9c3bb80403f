package sandbox

import (
	"path"
	"strings"
)

// GlobMatcher matches search_files' glob: a shell pattern on the base name
// ("*.go") or, when it holds a slash, on the path from the project root,
// with ** for any number of folders ("src/**/*.ts") and one level of
// braces ("*.{ts,tsx}").
type GlobMatcher struct{ alts []string }

func NewGlob(g string) (GlobMatcher, bool) {
	g = strings.TrimPrefix(strings.TrimSpace(g), "./")
	m := GlobMatcher{alts: expandBraces(g)}
	for _, a := range m.alts {
		for _, seg := range strings.Split(a, "/") {
			if seg == "**" {
				continue
			}
			if _, err := path.Match(seg, ""); err != nil {
				return m, false
			}
		}
	}
	return m, true
}

func (m GlobMatcher) Match(rel string) bool {
	for _, a := range m.alts {
		if !strings.Contains(a, "/") {
			if ok, _ := path.Match(a, path.Base(rel)); ok {
				return true
			}
			continue
		}
		if matchSegs(strings.Split(a, "/"), strings.Split(rel, "/")) {
			return true
		}
	}
	return false
}

func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchSegs(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// expandBraces expands the first {a,b} group of g, recursively.
func expandBraces(g string) []string {
	i := strings.IndexByte(g, '{')
	j := strings.IndexByte(g[max(i, 0):], '}')
	if i < 0 || j < 0 {
		return []string{g}
	}
	j += i
	var out []string
	for _, alt := range strings.Split(g[i+1:j], ",") {
		out = append(out, expandBraces(g[:i]+alt+g[j+1:])...)
	}
	return out
}

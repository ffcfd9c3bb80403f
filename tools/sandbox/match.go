package sandbox

import "fmt"

// Glob is the file tools' glob, search_files' pattern syntax, for rules
// kept outside the package (the user's permission rules) so that a
// pattern means the same everywhere.
type Glob struct{ m GlobMatcher }

// ParseGlob checks pattern and returns its matcher.
func ParseGlob(pattern string) (Glob, error) {
	m, ok := NewGlob(pattern)
	if !ok {
		return Glob{}, fmt.Errorf("bad glob %q", pattern)
	}
	return Glob{m}, nil
}

// Match reports whether the project-relative, slash-separated path rel
// matches.
func (g Glob) Match(rel string) bool { return g.m.Match(rel) }

// Canonical is the project-relative path a file tool would act on for p
// (as the model wrote it: relative, absolute, with .. or through
// symlinks), so that a rule about a folder cannot be sidestepped by
// another spelling of it. ok is false for a path the tools refuse.
func (r *Root) Canonical(p string) (rel string, ok bool) {
	t, err := r.Resolve(p)
	if err != nil {
		return "", false
	}
	return t.Rel, true
}

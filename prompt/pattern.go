package prompt

import (
	"bytes"
	"strings"
)

// pattern is one line of an ignore file, parsed the way git's dir.c
// parse_path_pattern does.
type pattern struct {
	glob    string // without the leading '!' and the trailing '/'
	negate  bool   // "!pattern" re-includes
	mustDir bool   // "pattern/" matches folders only
	// noDir patterns have no slash: they match the base name at any depth
	// below the ignore file. The others match the path relative to the
	// ignore file's folder (a leading slash only anchors).
	noDir bool
	// prefix is the length of the leading part without wildcards.
	prefix int
	// segments is the number of path segments a slash pattern can match,
	// or -1 when it contains "**" and so can match any depth.
	segments int
}

// patternList holds the patterns of one ignore file, in file order.
type patternList struct {
	// base is the folder of the ignore file relative to the top of the
	// tree, with a trailing slash ("" at the top).
	base string
	pats []pattern
	// literals maps a slash-free pattern without wildcards to the index of
	// its last occurrence, separately for patterns that match any entry
	// and those that match folders only. Most ignore lines are of this
	// kind ("node_modules", "dist/"), so a map lookup replaces most of
	// the per-entry matching work.
	literals, literalDirs map[string]int
	// others holds the indexes of the remaining patterns, ascending.
	others []int
	// hasPath is true when some pattern matches a path, not a base name.
	hasPath bool
}

// parsePatterns parses the content of an ignore file located in the folder
// base ("" or "dir/sub/").
func parsePatterns(base string, data []byte) *patternList {
	l := &patternList{base: base}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		p, ok := parsePattern(trimTrailingSpaces(string(line)))
		if !ok {
			continue
		}
		l.add(p)
	}
	return l
}

func (l *patternList) add(p pattern) {
	i := len(l.pats)
	l.pats = append(l.pats, p)
	if p.noDir && p.prefix == len(p.glob) {
		m := &l.literals
		if p.mustDir {
			m = &l.literalDirs
		}
		if *m == nil {
			*m = make(map[string]int)
		}
		(*m)[p.glob] = i
		return
	}
	if !p.noDir {
		l.hasPath = true
	}
	l.others = append(l.others, i)
}

// trimTrailingSpaces removes trailing spaces unless escaped with a
// backslash (git trims spaces only, not tabs).
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

func parsePattern(s string) (pattern, bool) {
	var p pattern
	if strings.HasPrefix(s, "!") {
		p.negate = true
		s = s[1:]
	}
	if strings.HasSuffix(s, "/") {
		p.mustDir = true
		s = s[:len(s)-1]
	}
	if s == "" {
		return p, false
	}
	p.noDir = !strings.Contains(s, "/")
	p.glob = s
	p.prefix = simpleLength(s)
	p.segments = -1
	if !p.noDir && !strings.Contains(s, "**") {
		p.segments = strings.Count(strings.TrimPrefix(s, "/"), "/") + 1
	}
	return p, true
}

// simpleLength is the length of the leading part of s without wildcards.
func simpleLength(s string) int {
	for i := 0; i < len(s); i++ {
		if isGlobSpecial(s[i]) {
			return i
		}
	}
	return len(s)
}

// match reports whether the list decides about an entry, and if so
// whether it ignores it. dir is the entry's folder relative to the top
// of the tree ("" at the top), depth is that folder's number of path
// segments; name is the entry's base name.
func (l *patternList) match(dir string, depth int, name string, isDir bool) (decided, ignored bool) {
	best := -1
	if i, ok := l.literals[name]; ok {
		best = i
	}
	if isDir {
		if i, ok := l.literalDirs[name]; ok && i > best {
			best = i
		}
	}
	var rel string // the path relative to l.base, built on first use
	relDepth := -1
	for k := len(l.others) - 1; k >= 0; k-- {
		i := l.others[k]
		if i < best {
			break
		}
		p := &l.pats[i]
		if p.mustDir && !isDir {
			continue
		}
		if p.noDir {
			if matchBase(p, name) {
				best = i
				break
			}
			continue
		}
		if relDepth < 0 {
			relDepth = depth - strings.Count(l.base, "/") + 1
		}
		if p.segments >= 0 && p.segments != relDepth {
			continue
		}
		if rel == "" {
			rel = relPath(l.base, dir, name)
		}
		if matchPath(p, rel) {
			best = i
			break
		}
	}
	if best < 0 {
		return false, false
	}
	return true, !l.pats[best].negate
}

// relPath returns dir/name relative to base; dir is base itself or a
// folder below it.
func relPath(base, dir, name string) string {
	if dir == "" || len(dir) < len(base) {
		return name
	}
	return dir[len(base):] + "/" + name
}

func matchBase(p *pattern, name string) bool {
	if p.prefix == len(p.glob) {
		return p.glob == name
	}
	if p.glob[0] == '*' && simpleLength(p.glob[1:]) == len(p.glob)-1 {
		return strings.HasSuffix(name, p.glob[1:])
	}
	return wildmatch(p.glob, name)
}

// matchPath matches a slash pattern against a path relative to the
// pattern's folder, as git's match_pathname does: the literal prefix is
// compared first and only the rest is globbed (which is also why "a**/b"
// behaves like "a/**/b" in git).
func matchPath(p *pattern, rel string) bool {
	g := p.glob
	prefix := p.prefix
	if g[0] == '/' {
		g = g[1:]
		prefix--
	}
	if prefix > 0 {
		if prefix > len(rel) || g[:prefix] != rel[:prefix] {
			return false
		}
		g, rel = g[prefix:], rel[prefix:]
		if g == "" {
			return rel == ""
		}
	}
	return wildmatch(g, rel)
}

package shell

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcli/agent/tools/shell/cmdline"
)

// A repository's config can name files and folders outside its git
// directory that git reads settings or programs from: an include.path
// kept in the work tree, a core.hooksPath such as husky's .husky/_, a
// filter or pager given as ./scripts/x. When those lie where commands
// may write (the project, a build cache), a command could change what
// the person's next git status runs without touching .git. So at each
// command's start the guard reads the configs (git's parser rules, the
// includes followed as git does, to its depth) and collects those paths.

// Bounds of reading configs: git itself follows includes ten deep.
const (
	maxIncludeDepth = 10
	maxConfigFiles  = 64
	maxConfigSize   = 1 << 20
)

// gitSetting is one setting of a config file: the key with its section
// and name lower-cased ("core.hookspath", "includeif.gitdir:~/w/.path").
type gitSetting struct{ key, value string }

// parseGitConfig reads the settings of a config file's text as git's
// config.c does (sections, quoted subsections, quoted values, escapes,
// continued lines, comments). Git refuses a file with a bad line whole;
// the settings before it are returned, which is more than git uses.
func parseGitConfig(b []byte) []gitSetting {
	p := cfgParser{b: b}
	p.b = []byte(strings.TrimPrefix(string(p.b), "\uFEFF"))
	var out []gitSetting
	section := ""
	comment := false
	for {
		c, eof := p.next()
		switch {
		case c == '\n':
			if eof {
				return out
			}
			comment = false
		case comment, isSpace(c):
		case c == '#' || c == ';':
			comment = true
		case c == '[':
			s, ok := p.section()
			if !ok || s == "" {
				return out
			}
			section = s
		case isAlpha(c):
			name, value, ok := p.keyValue(c)
			if !ok {
				return out
			}
			out = append(out, gitSetting{key: section + "." + name, value: value})
		default:
			return out
		}
	}
}

type cfgParser struct {
	b []byte
	i int
}

// next returns the next character, "\r\n" as '\n'; at the end, '\n'
// and eof.
func (p *cfgParser) next() (byte, bool) {
	if p.i >= len(p.b) {
		return '\n', true
	}
	c := p.b[p.i]
	p.i++
	if c == '\r' && p.i < len(p.b) && p.b[p.i] == '\n' {
		p.i++
		c = '\n'
	}
	return c, false
}

// section reads a header after its '[': "[core]", "[remote \"origin\"]"
// and the old "[branch.main]" (lower-cased whole, as git does).
func (p *cfgParser) section() (string, bool) {
	var name strings.Builder
	for {
		c, eof := p.next()
		switch {
		case eof:
			return "", false
		case c == ']':
			return name.String(), true
		case isSpace(c):
			return p.subsection(name.String(), c)
		case !isKeyChar(c) && c != '.':
			return "", false
		}
		name.WriteByte(lower(c))
	}
}

func (p *cfgParser) subsection(name string, c byte) (string, bool) {
	for isSpace(c) {
		if c == '\n' {
			return "", false
		}
		c, _ = p.next()
	}
	if c != '"' {
		return "", false
	}
	var sub strings.Builder
	for {
		c, _ := p.next()
		switch c {
		case '\n':
			return "", false
		case '"':
			if c, _ := p.next(); c != ']' {
				return "", false
			}
			return name + "." + sub.String(), true
		case '\\':
			if c, _ = p.next(); c == '\n' {
				return "", false
			}
		}
		sub.WriteByte(c)
	}
}

// keyValue reads a setting whose name starts with c.
func (p *cfgParser) keyValue(c byte) (name, value string, ok bool) {
	var b strings.Builder
	b.WriteByte(lower(c))
	for {
		var eof bool
		if c, eof = p.next(); eof || !isKeyChar(c) {
			break
		}
		b.WriteByte(lower(c))
	}
	for c == ' ' || c == '\t' {
		c, _ = p.next()
	}
	if c == '\n' {
		return b.String(), "", true // a bare name: true
	}
	if c != '=' {
		return "", "", false
	}
	value, ok = p.value()
	return b.String(), value, ok
}

// value is git's parse_value: spaces around it dropped, quotes joined,
// \t \b \n \\ \" escapes, a backslash before a line break continues it.
func (p *cfgParser) value() (string, bool) {
	var v []byte
	quote, comment := false, false
	trim := 0
	for {
		c, _ := p.next()
		switch {
		case c == '\n':
			if quote {
				return "", false
			}
			if trim > 0 {
				v = v[:trim]
			}
			return string(v), true
		case comment:
			continue
		case isSpace(c) && !quote:
			if trim == 0 {
				trim = len(v)
			}
			if len(v) > 0 {
				v = append(v, c)
			}
			continue
		case !quote && (c == ';' || c == '#'):
			comment = true
			continue
		}
		trim = 0
		switch c {
		case '\\':
			c, _ = p.next()
			switch c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", false
			}
		case '"':
			quote = !quote
			continue
		}
		v = append(v, c)
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
func isAlpha(c byte) bool   { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isKeyChar(c byte) bool { return isAlpha(c) || '0' <= c && c <= '9' || c == '-' }
func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// gitPath is a file or folder that a config names for git to read
// settings or programs from.
type gitPath struct {
	path string // absolute, as written resolved (links not)
	key  string // the setting that names it
	from string // the config file that sets it
	// program: a word of a command line, which counts only as a file
	// (cd src in an alias names no program).
	program bool
}

// configReader collects the paths that configs name, following includes.
type configReader struct {
	home  string
	seen  map[string]bool
	paths []gitPath
}

// read reads the config file name and what it includes; worktree is the
// folder relative paths of programs and hooks are taken from (the work
// tree's top, or the git directory of a bare repository).
func (r *configReader) read(name, worktree string, depth int) {
	if depth > maxIncludeDepth || len(r.seen) >= maxConfigFiles || r.seen[name] {
		return
	}
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	r.seen[name] = true
	f, err := os.Open(name)
	if err != nil {
		return
	}
	b, err := io.ReadAll(io.LimitReader(f, maxConfigSize))
	f.Close()
	if err != nil {
		return
	}
	for _, s := range parseGitConfig(b) {
		kind := cmdline.GitSetting(s.key)
		switch {
		case kind == cmdline.GitFile && strings.HasPrefix(s.key, "include"):
			// Included files are relative to the including one.
			if p := r.resolve(s.value, filepath.Dir(name)); p != "" {
				r.paths = append(r.paths, gitPath{path: p, key: s.key, from: name})
				r.read(p, worktree, depth+1)
			}
		case kind == cmdline.GitFile:
			if p := r.resolve(s.value, worktree); p != "" {
				r.paths = append(r.paths, gitPath{path: p, key: s.key, from: name})
			}
		case kind == cmdline.GitCommand || kind == cmdline.GitBangCommand:
			for _, w := range programPaths(strings.TrimPrefix(s.value, "!")) {
				if p := r.resolve(w, worktree); p != "" {
					r.paths = append(r.paths, gitPath{path: p, key: s.key, from: name, program: true})
				}
			}
		}
	}
}

// resolve makes a path of a config absolute: "~/" is the home folder,
// a relative path is taken from dir.
func (r *configReader) resolve(p, dir string) string {
	switch {
	case p == "":
		return ""
	case p == "~" || strings.HasPrefix(p, "~/"):
		if r.home == "" {
			return ""
		}
		p = filepath.Join(r.home, p[1:])
	case !filepath.IsAbs(p):
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// programPaths are the words of a command line that name a file by a
// path (./scripts/x, bin/pager, ~/x): the programs and scripts a setting
// runs. A bare name is found on PATH, not in a folder of the project.
func programPaths(command string) []string {
	var out []string
	for _, c := range cmdline.Parse(command).Commands {
		for _, w := range c.Words {
			if w.Dynamic {
				continue
			}
			t := w.Text
			if _, v, ok := strings.Cut(t, "="); ok && strings.HasPrefix(t, "-") {
				t = v // --rcfile=./x
			}
			if strings.Contains(t, "/") || strings.HasPrefix(t, "~") {
				out = append(out, t)
			}
		}
	}
	return out
}

package fsedit

import (
	"io/fs"
	"path"
	"strings"
	"sync"

	gitignore "github.com/sabhiram/go-gitignore"
)

// Ignorer decides which paths list_directory and search_files skip. It is
// an interface so that the project's own gitignore matcher (package
// prompt's, used for the file tree) can replace this one.
type Ignorer interface {
	// Ignored reports whether rel (slash-separated, relative to the
	// project root) is ignored; isDir says whether it is a folder.
	Ignored(rel string, isDir bool) bool
}

// gitignores matches against every .gitignore from the root down to a
// path's folder, loading each file once, when first needed. It uses
// github.com/sabhiram/go-gitignore for the patterns of one file. Known
// gaps: a "!" in a deeper .gitignore does not re-include what a higher
// one ignores, and .git/info/exclude and the global excludes file are not
// read.
type gitignores struct {
	fsys  fs.FS
	mu    sync.Mutex
	byDir map[string]*gitignore.GitIgnore // nil entry: folder has none
}

func newGitignores(fsys fs.FS) *gitignores {
	return &gitignores{fsys: fsys, byDir: map[string]*gitignore.GitIgnore{}}
}

// Ignored implements Ignorer.
func (g *gitignores) Ignored(rel string, isDir bool) bool {
	if rel == "." || rel == "" {
		return false
	}
	dir := path.Dir(rel)
	for {
		if gi := g.load(dir); gi != nil {
			sub := rel
			if dir != "." {
				sub = strings.TrimPrefix(rel, dir+"/")
			}
			if isDir {
				sub += "/"
			}
			if gi.MatchesPath(sub) {
				return true
			}
		}
		if dir == "." {
			return false
		}
		dir = path.Dir(dir)
	}
}

func (g *gitignores) load(dir string) *gitignore.GitIgnore {
	g.mu.Lock()
	defer g.mu.Unlock()
	if gi, ok := g.byDir[dir]; ok {
		return gi
	}
	var gi *gitignore.GitIgnore
	if b, err := fs.ReadFile(g.fsys, path.Join(dir, ".gitignore")); err == nil {
		gi = gitignore.CompileIgnoreLines(strings.Split(string(b), "\n")...)
	}
	g.byDir[dir] = gi
	return gi
}

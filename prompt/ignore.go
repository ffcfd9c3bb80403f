package prompt

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Names the ignore rules treat specially.
const (
	gitIgnoreFile   = ".gitignore"
	agentIgnoreFile = ".agentignore"
	gitFolder       = ".git"
	agentFolder     = ".agent"
)

// Ignore decides which entries of a project are hidden: those matched by
// the .gitignore files of the project (nested ones included, with git's
// precedence: a deeper file wins, and within a file the last matching line
// wins), by .git/info/exclude, and by .agentignore files (same syntax,
// read after the .gitignore of the same folder so they win over it).
// .git and .agent are always hidden. When the root lies inside a git
// repository, the ignore files of the folders between the repository's top
// and the root apply too, as they do for git. The user's global excludes
// file is not read, so that every user sees the same tree.
//
// An Ignore is safe for concurrent use.
type Ignore struct {
	root *Dir

	mu   sync.Mutex
	dirs map[string]*Dir // root-relative folder -> its Dir, for Ignored
}

// Dir holds the rules in force inside one folder. Walkers get the root's
// Dir from Ignore.Root and descend with Sub, so each ignore file is read
// once and no path strings are rebuilt per entry.
type Dir struct {
	abs   string // absolute path of the folder
	rel   string // path relative to the top of the rules ("" at the top)
	depth int    // number of segments of rel
	lists []*patternList
}

// NewIgnore loads the rules that apply to the project at root.
func NewIgnore(root string) (*Ignore, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, err
	}
	top, gitDir := findRepo(abs)
	d := &Dir{abs: top}
	if gitDir != "" {
		if data, err := os.ReadFile(filepath.Join(gitDir, "info", "exclude")); err == nil {
			d.lists = append(d.lists, parsePatterns("", data))
		}
	}
	d = d.withFiles(true, true)
	// Descend from the repository's top to root, as git would.
	if rest, _ := filepath.Rel(top, abs); rest != "." {
		for _, seg := range strings.Split(filepath.ToSlash(rest), "/") {
			d = d.Sub(seg, nil)
		}
	}
	return &Ignore{root: d, dirs: map[string]*Dir{"": d}}, nil
}

// findRepo returns the top of the git work tree holding abs and its git
// folder, or abs and "" when abs is not inside a repository.
func findRepo(abs string) (top, gitDir string) {
	for dir := abs; ; {
		g := filepath.Join(dir, gitFolder)
		if fi, err := os.Stat(g); err == nil {
			if fi.IsDir() {
				return dir, g
			}
			return dir, linkedGitDir(dir, g)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs, ""
		}
		dir = parent
	}
}

// linkedGitDir follows a ".git" file ("gitdir: path", as in worktrees and
// submodules) to the folder holding info/exclude.
func linkedGitDir(dir, file string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	path, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return ""
	}
	path = strings.TrimSpace(path)
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	// A worktree shares info/exclude with the main repository.
	if common, err := os.ReadFile(filepath.Join(path, "commondir")); err == nil {
		c := strings.TrimSpace(string(common))
		if !filepath.IsAbs(c) {
			c = filepath.Join(path, c)
		}
		return c
	}
	return path
}

// Root returns the rules in force in the root folder.
func (ig *Ignore) Root() *Dir { return ig.root }

// Ignored reports whether the root-relative, slash-separated path is
// hidden, either itself or because a folder above it is.
func (ig *Ignore) Ignored(rel string, isDir bool) bool {
	rel = strings.Trim(filepath.ToSlash(filepath.Clean(rel)), "/")
	if rel == "." || rel == "" || rel == ".." || strings.HasPrefix(rel, "../") {
		return false // the root itself, or outside it: not ours to hide
	}
	parent, name := "", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		parent, name = rel[:i], rel[i+1:]
	}
	d := ig.dir(parent)
	return d == nil || d.Ignored(name, isDir)
}

// dir returns the Dir of a root-relative folder, or nil when the folder or
// one above it is ignored. Dirs are cached, so asking about many paths of
// one folder reads its ignore files once.
func (ig *Ignore) dir(rel string) *Dir {
	ig.mu.Lock()
	defer ig.mu.Unlock()
	if d, ok := ig.dirs[rel]; ok {
		return d
	}
	d, key := ig.root, ""
	for _, seg := range strings.Split(rel, "/") {
		if key == "" {
			key = seg
		} else {
			key += "/" + seg
		}
		next, ok := ig.dirs[key]
		if !ok {
			if !d.Ignored(seg, true) {
				next = d.Sub(seg, nil)
			}
			ig.dirs[key] = next
		}
		if next == nil {
			return nil
		}
		d = next
	}
	return d
}

// Ignored reports whether the entry called name in this folder is hidden.
// Entries of an ignored folder are never asked about: a walker does not
// enter it, which is also git's rule that nothing inside an excluded
// folder can be re-included.
func (d *Dir) Ignored(name string, isDir bool) bool {
	if name == gitFolder || name == agentFolder {
		return true
	}
	for i := len(d.lists) - 1; i >= 0; i-- {
		if decided, ignored := d.lists[i].match(d.rel, d.depth, name, isDir); decided {
			return ignored
		}
	}
	return false
}

// Sub returns the rules in force in the subfolder name. entries, when not
// nil, are the subfolder's entries as the walker read them: they tell
// whether there is an ignore file to read at all, which saves two failed
// opens per folder. With nil entries Sub tries to read the files.
func (d *Dir) Sub(name string, entries []fs.DirEntry) *Dir {
	if entries == nil {
		return d.sub(name, true, true)
	}
	var hasGit, hasAgent bool
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		switch e.Name() {
		case gitIgnoreFile:
			hasGit = true
		case agentIgnoreFile:
			hasAgent = true
		}
	}
	return d.sub(name, hasGit, hasAgent)
}

// sub returns the rules in force in the subfolder name, reading the
// ignore files the subfolder is known to hold.
func (d *Dir) sub(name string, hasGit, hasAgent bool) *Dir {
	s := &Dir{abs: d.abs + string(filepath.Separator) + name, depth: d.depth + 1, lists: d.lists}
	if d.rel == "" {
		s.rel = name
	} else {
		s.rel = d.rel + "/" + name
	}
	return s.withFiles(hasGit, hasAgent)
}

// withFiles adds the folder's own ignore files to d's rules.
func (d *Dir) withFiles(hasGit, hasAgent bool) *Dir {
	base := ""
	if d.rel != "" {
		base = d.rel + "/"
	}
	added := false
	for _, f := range [...]struct {
		name string
		ok   bool
	}{{gitIgnoreFile, hasGit}, {agentIgnoreFile, hasAgent}} {
		if !f.ok {
			continue
		}
		data, err := readIgnoreFile(filepath.Join(d.abs, f.name))
		if err != nil || len(data) == 0 {
			continue
		}
		if !added {
			// Copy before appending: siblings share the parent's slice.
			d.lists = append([]*patternList(nil), d.lists...)
			added = true
		}
		d.lists = append(d.lists, parsePatterns(base, data))
	}
	return d
}

// readIgnoreFile reads an ignore file unless it is a symbolic link, which
// git refuses to follow for its in-tree files.
func readIgnoreFile(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fs.ErrInvalid
	}
	return os.ReadFile(path)
}

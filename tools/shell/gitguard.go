package shell

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Git runs programs that a repository's config names (core.fsmonitor,
// core.pager, hooks, filters) when a person types git status in it,
// outside any sandbox. So a sandboxed command must not leave such a
// repository behind: the ones there before it are mounted read-only
// (found by a bounded walk at its start), and a new one, which bubblewrap
// cannot forbid ahead of time, is found after it and moved into
// .agent/quarantine, where git does not look, and the person is told.

// repo is a place git reads a repository from: a .git entry (folder,
// file pointing elsewhere, or link), or a folder shaped like a bare
// repository (HEAD, objects/, refs/); for the project folder itself,
// each of those three.
type repo struct {
	rel string // slash-separated, relative to the project
	id  fileID
	// top: one of the markers that make the project folder itself a
	// bare repository.
	top bool
}

// fileID tells one file from another across renames.
type fileID struct{ dev, ino uint64 }

func idOf(fi fs.FileInfo) fileID {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fileID{uint64(st.Dev), uint64(st.Ino)}
	}
	return fileID{}
}

// repoScan is the repositories of the project at one moment. A walk that
// ran out of folders or time is incomplete, and why says so.
type repoScan struct {
	repos   []repo
	why     string
	topBare bool // the project folder itself is shaped like a bare repository
}

// findRepos walks root breadth first, ignored folders included (a
// repository in node_modules runs as well as any), reading at most
// maxDirs folders within maxTime: the bounds of the changed-files scan.
// Files are not looked at, only the names of folders' entries, so a walk
// costs one read per folder. Links are not followed; .agent at the top
// and the insides of repositories are skipped.
func findRepos(root string, maxDirs int, maxTime time.Duration) repoScan {
	var s repoScan
	deadline := time.Now().Add(maxTime)
	add := func(rel string, top bool) {
		if fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel))); err == nil {
			s.repos = append(s.repos, repo{rel: rel, id: idOf(fi), top: top})
		}
	}
	queue := []string{""}
	for read := 0; len(queue) > 0; read++ {
		if read >= maxDirs {
			s.why = fmt.Sprintf("the project has more than %d folders", maxDirs)
			break
		}
		if read%64 == 0 && time.Now().After(deadline) {
			s.why = fmt.Sprintf("looking through the project took over %s", maxTime)
			break
		}
		rel := queue[0]
		queue = queue[1:]
		ents, err := readNames(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			continue // unreadable: look at what can be seen
		}
		if rel == "" {
			// The project folder itself: git takes it for a bare
			// repository when it has no .git. Its markers are kept
			// track of, so that the ones a command made are moved away.
			s.topBare = bareShaped(ents)
			for _, e := range ents {
				if n := e.Name(); n == "HEAD" || n == "objects" || n == "refs" {
					add(n, true)
				}
			}
		} else if bareShaped(ents) {
			add(rel, false)
			continue
		}
		for _, e := range ents {
			child := path.Join(rel, e.Name())
			switch {
			case e.Name() == ".git":
				add(child, false)
			case rel == "" && e.Name() == ".agent":
			case e.IsDir():
				queue = append(queue, child)
			}
		}
	}
	return s
}

// readNames lists a folder without sorting it.
func readNames(dir string) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// bareShaped reports whether a folder holding ents is one git would take
// for a bare repository when run inside it.
func bareShaped(ents []fs.DirEntry) bool {
	var head, objects, refs bool
	for _, e := range ents {
		switch e.Name() {
		case "HEAD":
			head = !e.IsDir()
		case "objects":
			objects = e.IsDir()
		case "refs":
			refs = e.IsDir()
		}
	}
	return head && objects && refs
}

// gitGuard is what one command's guard saw before the command.
type gitGuard struct {
	root   string
	before repoScan
	known  map[fileID]bool
	start  time.Time
}

// maxProtected bounds the repositories mounted read-only for one command:
// each mount costs the sandbox's start. Beyond it, a repository is
// treated as one the walk did not reach.
const maxProtected = 500

// guardGit looks for the project's repositories before a command.
func (t *Tool) guardGit() *gitGuard {
	g := &gitGuard{root: t.root, known: map[fileID]bool{}, start: time.Now()}
	g.before = findRepos(t.root, t.opts.ScanFiles, t.opts.ScanTime)
	if len(g.before.repos) > maxProtected {
		g.before.repos = g.before.repos[:maxProtected]
		g.before.why = fmt.Sprintf("the project has more than %d git repositories", maxProtected)
	}
	for _, r := range g.before.repos {
		g.known[r.id] = true
	}
	return g
}

// readOnly are the paths the sandbox mounts read-only for the command:
// every repository found but the top .git (which the sandbox always
// mounts), and the folders .git files point to when a command could
// otherwise write them (in the project or a writable cache). A target is
// judged by where its links land, so that a pointer cannot make a hidden
// folder of the home visible.
func (g *gitGuard) readOnly(caches []string) []string {
	var out []string
	writable := func(p string) bool {
		if within(g.root, p) {
			return !within(filepath.Join(g.root, ".git"), p) && !within(filepath.Join(g.root, ".agent"), p)
		}
		for _, c := range caches {
			if within(c, p) {
				return true
			}
		}
		return false
	}
	for _, r := range g.before.repos {
		if r.top {
			continue // the person's own files at the top, not a repository's
		}
		abs := filepath.Join(g.root, filepath.FromSlash(r.rel))
		if r.rel != ".git" {
			if real, err := filepath.EvalSymlinks(abs); err == nil && writable(real) {
				out = append(out, real)
			}
		}
		if target := gitdirOf(abs); target != "" {
			if real, err := filepath.EvalSymlinks(target); err == nil && writable(real) {
				out = append(out, real)
			}
		}
	}
	return out
}

// gitdirOf is the folder a .git file points to ("gitdir: ../x"), or "".
func gitdirOf(p string) string {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 4096 {
		return ""
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(b), "\n")
	dir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if dir = strings.TrimSpace(dir); !ok || dir == "" {
		return ""
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(p), dir)
	}
	return filepath.Clean(dir)
}

// moved is one repository the guard took out of the project.
type moved struct {
	rel string // where it was
	to  string // where it is now, relative to the project; "" when it could not be moved
	// note says why it was renamed in place rather than moved into
	// .agent/quarantine.
	note string
	top  bool // a marker of the project folder as a bare repository
	// unsure: the walk before the command did not reach it, so it may
	// have been there, unprotected, and changed by the command.
	unsure bool
	err    error
}

// gitReport is what the guard found after a command.
type gitReport struct {
	moved []moved
	why   string // the walk after the command stopped early
}

// check looks for repositories the command created, or changed when the
// walk before it had not reached them, and moves them into
// .agent/quarantine.
func (g *gitGuard) check(maxDirs int, maxTime time.Duration) gitReport {
	after := findRepos(g.root, maxDirs, maxTime)
	rep := gitReport{why: after.why}
	stamp := time.Now().Format("20060102-150405")
	for _, r := range after.repos {
		if g.known[r.id] || r.top && !after.topBare {
			continue // there before, and read-only during the command; or a file of the person's
		}
		abs := filepath.Join(g.root, filepath.FromSlash(r.rel))
		m := moved{rel: r.rel, top: r.top}
		if g.before.why != "" {
			// The walk before may have missed it: take it only if the
			// command made or changed it.
			if !touchedSince(abs, g.start) {
				continue
			}
			m.unsure = true
		}
		m.to, m.note, m.err = quarantine(g.root, r.rel, stamp)
		rep.moved = append(rep.moved, m)
	}
	return rep
}

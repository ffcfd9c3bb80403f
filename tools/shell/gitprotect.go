package shell

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"time"
)

// readOnly are the paths the sandbox mounts read-only for the command:
// every repository found but the top .git (which the sandbox always
// mounts), the git directories .git files and commondir files point to,
// and the files and folders the repositories' configs (and the person's
// own git config) name for git to read settings or programs from, when a
// command could otherwise write them (in the project or a writable
// cache). A path is judged by where its links land, so that a pointer
// cannot make a hidden folder of the home visible. A path of those that
// does not exist yet cannot be mounted: it is watched instead (g.watched)
// and moved away after the command if the command made it.
func (g *gitGuard) readOnly(caches []string) []string {
	p := protector{g: g, caches: caches}
	globals := g.globalConfigs()
	for _, r := range g.before.repos {
		if len(p.ro) >= maxProtected || len(g.watched) >= maxProtected {
			break
		}
		abs := filepath.Join(g.root, filepath.FromSlash(r.rel))
		gd, work := abs, abs
		switch {
		case r.kind == gitDir && r.whole:
			p.protect(abs, "")
		case r.kind == gitDir:
			p.entries(abs, r.rel)
		default: // a .git entry
			work = filepath.Dir(abs)
			if r.rel != ".git" {
				p.protect(abs, "")
			}
			if target := gitdirOf(abs); target != "" {
				gd = target
				p.repoDir(target, r.rel+"'s gitdir")
			} else if target := linkTarget(abs); target != "" {
				// A link: git reads the folder it leads to, which a
				// command could make when it is not there yet.
				gd = target
				if isDir(target) {
					p.repoDir(target, r.rel+"'s link")
				} else {
					p.protect(target, r.rel+" links to it")
				}
			}
		}
		common := gd
		if c := commonDirOf(gd); c != "" {
			common = c
			p.repoDir(c, r.rel+"'s commondir")
		}
		cr := configReader{home: g.env["HOME"]}
		cr.read(filepath.Join(common, "config"), work, 0)
		if common != gd {
			cr.read(filepath.Join(gd, "config.worktree"), work, 0)
		}
		for _, name := range globals {
			cr.read(name, work, 0)
		}
		for _, gp := range cr.paths {
			if fi, err := os.Stat(gp.path); gp.program && err == nil && fi.IsDir() {
				continue
			}
			p.protect(gp.path, gp.key+" in "+p.show(gp.from))
		}
	}
	return p.ro
}

// linkTarget is where the link p leads, absolute (one step: protect
// follows the rest); "" when p is no link.
func linkTarget(p string) string {
	target, err := os.Readlink(p)
	if err != nil {
		return ""
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(p), target)
	}
	return filepath.Clean(target)
}

// globalConfigs are the person's own git config files, which apply to
// every repository: a relative core.hooksPath there names a folder of
// each work tree.
func (g *gitGuard) globalConfigs() []string {
	home := g.env["HOME"]
	var out []string
	if v := g.env["GIT_CONFIG_SYSTEM"]; v != "" {
		out = append(out, v)
	} else if g.env["GIT_CONFIG_NOSYSTEM"] == "" {
		out = append(out, "/etc/gitconfig")
	}
	switch xdg := g.env["XDG_CONFIG_HOME"]; {
	case g.env["GIT_CONFIG_GLOBAL"] != "":
		return append(out, g.env["GIT_CONFIG_GLOBAL"])
	case xdg != "":
		out = append(out, filepath.Join(xdg, "git", "config"))
	case home != "":
		out = append(out, filepath.Join(home, ".config", "git", "config"))
	}
	if home != "" {
		out = append(out, filepath.Join(home, ".gitconfig"))
	}
	return out
}

// protector collects the read-only mounts and the watched paths of one
// command.
type protector struct {
	g      *gitGuard
	caches []string
	ro     []string
}

// writable reports whether a command could write the real path p.
func (p *protector) writable(real string) bool {
	root := p.g.root
	if within(root, real) {
		return !within(filepath.Join(root, ".git"), real) && !within(filepath.Join(root, ".agent"), real)
	}
	for _, c := range p.caches {
		if within(c, real) {
			return true
		}
	}
	return false
}

// protect mounts the path x read-only when a command could write it;
// with a reason (why), it is also watched, and one that does not exist
// yet only watched.
func (p *protector) protect(x, why string) {
	real, err := filepath.EvalSymlinks(x)
	exists := err == nil
	if !exists {
		// Not there yet: where it would be made.
		dir, derr := filepath.EvalSymlinks(filepath.Dir(x))
		if derr != nil || why == "" {
			return
		}
		real = filepath.Join(dir, filepath.Base(x))
	}
	if !p.writable(real) || within(real, p.g.root) {
		return // never the project folder itself, nor a folder holding it
	}
	if exists && !slices.Contains(p.ro, real) {
		p.ro = append(p.ro, real)
	}
	if why == "" || slices.ContainsFunc(p.g.watched, func(w watched) bool { return w.path == real }) {
		return
	}
	w := watched{path: real, why: why}
	if fi, err := os.Lstat(real); err == nil {
		w.existed, w.id = true, idOf(fi)
	}
	p.g.watched = append(p.g.watched, w)
}

// repoDir protects a git directory that a .git or commondir file names:
// whole when it holds only a repository, else the entries git reads.
func (p *protector) repoDir(dir, what string) {
	ents, err := readNames(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !repoName(e.Name()) {
			p.entries(dir, what)
			return
		}
	}
	p.protect(dir, "")
}

// entries protects what git reads in a git directory that also holds
// the person's files (the project folder taken for one, a folder with a
// commondir file), and watches the ones not there yet.
func (p *protector) entries(dir, what string) {
	if what == "" {
		what = "the project folder"
	}
	for _, n := range gitEntries {
		p.protect(filepath.Join(dir, n), "the git directory "+what)
	}
}

// show is a path for a message: relative to the project when inside it.
func (p *protector) show(x string) string { return showPath(p.g.root, x) }

func showPath(root, x string) string {
	if rel, err := filepath.Rel(root, x); err == nil && within(root, x) {
		return filepath.ToSlash(rel)
	}
	return x
}

// check looks for repositories the command created, or changed when the
// walk before it had not reached them, and for paths git reads that it
// made or replaced, and moves them into .agent/quarantine. The report
// names the folders it could not look into: those its time did not
// reach, and those the command made unreadable.
func (g *gitGuard) check(maxTime time.Duration) gitReport {
	after := findRepos(g.root, maxTime)
	rep := gitReport{unread: after.unread, limit: maxTime}
	for id, rel := range after.unreadable {
		// One unreadable before the command and left alone by it (its
		// inode change time, which a chmod sets, is older) is the
		// person's.
		if _, known := g.before.unreadable[id]; !known || createdSince(filepath.Join(g.root, filepath.FromSlash(rel)), g.start) {
			rep.unreadable = append(rep.unreadable, rel)
		}
	}
	slices.Sort(rep.unreadable)
	stamp := time.Now().Format("20060102-150405")
	for _, r := range after.repos {
		if g.known[r.id] {
			continue // there before, and read-only during the command
		}
		abs := filepath.Join(g.root, filepath.FromSlash(r.rel))
		unsure := false
		if g.before.why != "" {
			// The walk before may have missed it: take it only if the
			// command made or changed it.
			if !touchedSince(abs, g.start) {
				continue
			}
			unsure = true
		}
		if r.kind == dotGit || r.whole {
			m := moved{rel: r.rel, unsure: unsure}
			m.to, m.note, m.err = quarantine(g.root, r.rel, stamp)
			rep.moved = append(rep.moved, m)
			if m.err != nil {
				g.known[r.id] = true // told once; a guard that checks again (GitWatch) does not repeat it
			}
			continue
		}
		rep.moved = append(rep.moved, g.unmark(r.rel, stamp, unsure)...)
	}
	for i := range g.watched {
		w := &g.watched[i]
		fi, err := os.Lstat(w.path)
		if err != nil || w.existed && idOf(fi) == w.id {
			continue // gone, or the one there before (mounted read-only)
		}
		m := moved{rel: showPath(g.root, w.path), why: w.why, replaced: w.existed}
		if within(g.root, w.path) {
			m.to, m.note, m.err = quarantine(g.root, m.rel, stamp)
		} else {
			m.to, m.err = renameBeside(w.path, stamp)
		}
		rep.moved = append(rep.moved, m)
		if m.err != nil {
			w.existed, w.id = true, idOf(fi)
		}
	}
	return rep
}

// unmark moves away the entries that a command added to the folder rel
// and that made git take it for a git directory, keeping the person's
// files; when none is new (a HEAD rewritten in place), HEAD goes.
func (g *gitGuard) unmark(rel, stamp string, unsure bool) []moved {
	var out []moved
	dir := filepath.Join(g.root, filepath.FromSlash(rel))
	take := func(n string) {
		m := moved{rel: path.Join(rel, n), marker: true, dir: rel, unsure: unsure}
		m.to, m.note, m.err = quarantine(g.root, m.rel, stamp)
		out = append(out, m)
	}
	for _, n := range gitMarkers {
		if fi, err := os.Lstat(filepath.Join(dir, n)); err == nil && !g.before.markers[idOf(fi)] {
			take(n)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "HEAD")); err == nil && stillGitDir(dir) {
		take("HEAD")
	}
	return out
}

// stillGitDir reports whether git takes dir for a git directory.
func stillGitDir(dir string) bool {
	ents, err := readNames(dir)
	if err != nil {
		return false
	}
	names := map[string]bool{}
	for _, e := range ents {
		names[e.Name()] = true
	}
	return isGitDir(dir, names)
}

// renameBeside renames the path p, outside the project (in a cache),
// where it is, under a name git does not look for.
func renameBeside(p, stamp string) (string, error) {
	r, err := os.OpenRoot(filepath.Dir(p))
	if err != nil {
		return "", err
	}
	defer r.Close()
	to, err := freeName(r, filepath.Base(p)+".quarantined-"+stamp)
	if err == nil {
		err = r.Rename(filepath.Base(p), to)
	}
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(p), to), nil
}

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

	"github.com/agentcli/agent/tools"
)

// Git runs programs that a repository's config names (core.fsmonitor,
// core.pager, hooks, filters) when a person types git status in it,
// outside any sandbox. So a sandboxed command must not leave such a
// repository behind: the ones there before it are mounted read-only
// (found by a bounded walk at its start), and a new one, which bubblewrap
// cannot forbid ahead of time, is found after it and moved into
// .agent/quarantine, where git does not look, and the person is told.

// quarantineDir is where planted repositories go, inside .agent (which
// commands cannot write).
const quarantineDir = "quarantine"

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

// guardGit looks for the project's repositories before a command.
func (t *Tool) guardGit() *gitGuard {
	g := &gitGuard{root: t.root, known: map[fileID]bool{}, start: time.Now()}
	g.before = findRepos(t.root, t.opts.ScanFiles, t.opts.ScanTime)
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
	top bool   // a marker of the project folder as a bare repository
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
		m.to, m.err = quarantine(g.root, r.rel, stamp)
		rep.moved = append(rep.moved, m)
	}
	return rep
}

// ctimeSlack covers the coarse clock the kernel stamps files with.
const ctimeSlack = 50 * time.Millisecond

func ctime(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	}
	return fi.ModTime()
}

// createdSince reports whether the entry at p itself was made (or last
// had its metadata changed) after start.
func createdSince(p string, start time.Time) bool {
	fi, err := os.Lstat(p)
	return err == nil && !ctime(fi).Before(start.Add(-ctimeSlack))
}

// touchedSince reports whether a repository or anything git reads from it
// to decide what to run (its config, hooks, info, the folder a .git file
// points to) changed after start. The inode change time cannot be set
// back by the command, unlike the modification time. Bounded: at most a
// few hundred entries are looked at.
func touchedSince(p string, start time.Time) bool {
	if createdSince(p, start) {
		return true
	}
	dir := p
	if target := gitdirOf(p); target != "" {
		if createdSince(target, start) {
			return true
		}
		dir = target
	}
	seen := 0
	var look func(d string, depth int) bool
	look = func(d string, depth int) bool {
		ents, err := readNames(d)
		if err != nil {
			return false
		}
		for _, e := range ents {
			if seen++; seen > 500 {
				return false
			}
			full := filepath.Join(d, e.Name())
			if createdSince(full, start) {
				return true
			}
			if depth == 0 && e.IsDir() && (e.Name() == "hooks" || e.Name() == "info" || e.Name() == "worktrees") && look(full, depth+1) {
				return true
			}
		}
		return false
	}
	return look(dir, 0)
}

// quarantine moves the repository at rel into .agent/quarantine under a
// name git does not look for, keeping everything in it. When that cannot
// be (another file system), it is renamed where it is.
func quarantine(root, rel, stamp string) (string, error) {
	from := filepath.Join(root, filepath.FromSlash(rel))
	name := stamp + "-" + strings.ReplaceAll(rel, "/", "_")
	dir := filepath.Join(root, ".agent", quarantineDir)
	err := os.MkdirAll(dir, 0o700)
	if err == nil {
		var to string
		if to, err = freeName(filepath.Join(dir, name)); err == nil {
			if err = os.Rename(from, to); err == nil {
				return filepath.ToSlash(must(filepath.Rel(root, to))), nil
			}
		}
	}
	// Beside itself, on its own file system.
	to, ferr := freeName(from + ".quarantined-" + stamp)
	if ferr != nil {
		return "", err
	}
	if rerr := os.Rename(from, to); rerr != nil {
		return "", rerr
	}
	return filepath.ToSlash(must(filepath.Rel(root, to))), nil
}

// freeName is p, or p-2, p-3... whichever does not exist yet.
func freeName(p string) (string, error) {
	for i := 1; i < 1000; i++ {
		c := p
		if i > 1 {
			c = fmt.Sprintf("%s-%d", p, i)
		}
		if _, err := os.Lstat(c); os.IsNotExist(err) {
			return c, nil
		}
	}
	return "", fmt.Errorf("no free name for %s", p)
}

func must(s string, _ error) string { return s }

// render says what the guard did, for the model (text) and for the
// person (alerts).
func (r gitReport) render() (text string, alerts []string) {
	var b strings.Builder
	for _, m := range r.moved {
		what := "created " + m.rel + ", a git repository"
		switch {
		case m.top:
			what = "created " + m.rel + ", which made the project folder a git repository to git"
		case m.unsure:
			what = "created or changed " + m.rel + ", a git repository the sandbox had not protected"
		}
		var alert string
		switch {
		case m.err != nil:
			alert = fmt.Sprintf("the command %s; it could not be moved away (%v): do not run git there until you have checked it", what, m.err)
		default:
			alert = fmt.Sprintf("the command %s, whose config git would run outside the sandbox; moved to %s", what, m.to)
		}
		alerts = append(alerts, alert)
		fmt.Fprintf(&b, "Warning: %s.\n", upperFirst(alert))
	}
	if len(r.moved) > 0 {
		b.WriteString("Commands cannot create or change git repositories: git is for the user to run.\n")
	}
	if r.why != "" {
		fmt.Fprintf(&b, "Not all of the project was checked for new git repositories: %s.\n", r.why)
	}
	return b.String(), alerts
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// roBinds are the bubblewrap options that mount paths read-only, over the
// writable project.
func roBinds(paths []string) []string {
	out := make([]string, 0, 3*len(paths))
	for _, p := range paths {
		out = append(out, "--ro-bind-try", p, p)
	}
	return out
}

// reportGit adds what the guard found to a command's result: the model
// reads it in the content (or the message of an error), the person in
// the alerts. A project too large to look through whole is said to the
// person once.
func (t *Tool) reportGit(r *tools.Result, rep gitReport) {
	text, alerts := rep.render()
	if rep.why != "" && t.toldPartial.CompareAndSwap(false, true) {
		alerts = append(alerts, fmt.Sprintf("not all of this project is checked for git repositories that commands plant (%s): one planted beyond would not be found", rep.why))
	}
	r.Alerts = append(r.Alerts, alerts...)
	if text == "" {
		return
	}
	if r.IsError() {
		if len(rep.moved) > 0 {
			r.Message += "; " + strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(text, "\n", 2)[0], "Warning: "), ".")
		}
		return
	}
	if len(rep.moved) > 0 {
		r.Message += "; " + plural(len(rep.moved), "planted git repository") + " moved away"
	}
	r.Content += "\n" + text
}

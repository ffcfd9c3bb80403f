package shell

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// Git runs programs that a repository's config names (core.fsmonitor,
// core.pager, hooks, filters) when a person types git status in it,
// outside any sandbox. So a sandboxed command must not leave such a
// repository behind: the ones there before it are mounted read-only
// (found by a walk at its start, gitwalk.go), with the files and folders
// their configs name (gitconfig.go), and a new one, which bubblewrap
// cannot forbid ahead of time, is found after it and moved into
// .agent/quarantine, where git does not look, and the person is told.
// What git takes for a repository follows git's own rules (gitdir.go).

// repoKind tells the two ways git finds a repository in a folder.
type repoKind int

const (
	// dotGit: a .git entry (folder, file pointing elsewhere, or link).
	dotGit repoKind = iota
	// gitDir: a folder git takes for a git directory itself (a bare
	// repository, or HEAD with a commondir file); for the project folder
	// too.
	gitDir
)

// repo is a place git reads a repository from.
type repo struct {
	rel  string // slash-separated, relative to the project; "" for the project folder
	id   fileID
	kind repoKind
	// whole: a git directory that holds nothing but a repository's
	// entries, which moves as one; otherwise only the entries that make
	// it one (gitMarkers) are moved, and the person's files stay.
	whole bool
}

// fileID tells one file from another across renames.
type fileID struct{ dev, ino uint64 }

func idOf(fi fs.FileInfo) fileID {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fileID{uint64(st.Dev), uint64(st.Ino)}
	}
	return fileID{}
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

// gitGuard is what one command's guard saw before the command.
type gitGuard struct {
	root   string
	env    map[string]string // the person's environment: HOME and git's config variables
	before repoScan
	known  map[fileID]bool
	start  time.Time
	// watched are the paths git reads settings or programs from that a
	// command could create or put in place of the ones there (readOnly
	// fills it).
	watched []watched
}

// watched is one path git reads from, as it was before the command.
type watched struct {
	path    string // absolute
	existed bool
	id      fileID
	why     string // "core.hookspath in .git/config"
}

// maxProtected bounds the repositories mounted read-only for one command
// (and the paths their configs name): each mount costs the sandbox's
// start. Beyond it, a repository is treated as one the walk did not
// reach.
const maxProtected = 500

// guardGit looks for the project's repositories before a command.
func (t *Tool) guardGit() *gitGuard { return newGitGuard(t.root, t.opts.Env, t.opts.GitScanTime) }

// newGitGuard looks for the repositories of the project folder root
// (environ is the person's environment: HOME and git's variables),
// walking for at most scanTime.
func newGitGuard(root string, environ []string, scanTime time.Duration) *gitGuard {
	g := &gitGuard{root: root, env: envMap(environ), known: map[fileID]bool{}, start: time.Now()}
	g.before = findRepos(root, scanTime)
	if len(g.before.repos) > maxProtected {
		g.before.repos = g.before.repos[:maxProtected]
		g.before.why = fmt.Sprintf("the project has more than %d git repositories", maxProtected)
	}
	for _, r := range g.before.repos {
		g.known[r.id] = true
	}
	return g
}

package shell

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/agentcli/agent/internal/dirent"
)

// The guard's walk must see every folder of the project: a repository
// planted one folder beyond a bound would run its config at the person's
// next git status. So it has no count bound, only one of time, and it is
// fast: a few workers read folders with getdents (names and types, never
// a stat per entry), each going depth-first through its own stack and
// handing half of it to the others only when one is idle.

// DefaultGitScanTime bounds one walk of the guard. 200,000 folders take
// well under a second (BenchmarkFindRepos200k); a project that needs
// longer is one the guard cannot vouch for, and the turn stops.
const DefaultGitScanTime = 30 * time.Second

// repoScan is the repositories of the project at one moment.
type repoScan struct {
	repos []repo
	// markers are the entries named like gitMarkers seen anywhere, so
	// that the ones a command added to a folder are told from the
	// person's.
	markers map[fileID]bool
	// unread are the folders (slash-separated, relative; "" for the
	// project folder) the walk did not read when its time ran out: what
	// lies in them was not looked at.
	unread []string
	// unreadable are the folders that could not be read (a mode of
	// 000), by identity, with where they are.
	unreadable map[fileID]string
	// why says why the walk is incomplete: its time, a folder it could
	// not read, too many repositories to protect; "" when complete.
	why string
}

// findRepos walks root, ignored folders included (a repository in
// node_modules runs as well as any), within maxTime. Files are not
// looked at, only the names and types of folders' entries (and HEAD and
// commondir where a folder has them), so a walk costs one read per
// folder. Links are not followed; .agent at the top and the insides of
// repositories are skipped. The repositories come sorted, shallowest
// first.
func findRepos(root string, maxTime time.Duration) repoScan {
	return walkRepos(root, dirent.Scan, time.Now().Add(maxTime), time.Now, maxTime)
}

// walkRepos is findRepos with its folder listing and clock: the walk
// stops reading when now reaches deadline (limit is what the message
// calls it).
func walkRepos(root string, scan dirent.Func, deadline time.Time, now func() time.Time, limit time.Duration) repoScan {
	w := &repoWalk{root: root, scan: scan, deadline: deadline, now: now, jobs: []string{""}}
	w.work = sync.NewCond(&w.mu)
	w.s = repoScan{markers: map[fileID]bool{}, unreadable: map[fileID]string{}}
	w.pending.Store(1)
	var wg sync.WaitGroup
	for range walkers() {
		wg.Go(w.worker)
	}
	wg.Wait()
	s := w.s
	slices.SortFunc(s.repos, func(a, b repo) int {
		if d := strings.Count(a.rel, "/") - strings.Count(b.rel, "/"); d != 0 {
			return d
		}
		return strings.Compare(a.rel, b.rel)
	})
	slices.Sort(w.left)
	s.unread = w.left
	switch {
	case len(s.unread) > 0:
		s.why = fmt.Sprintf("looking through the project took over %s", limit)
	case len(s.unreadable) > 0:
		s.why = "a folder could not be read"
	}
	return s
}

// walkers is how many folders are read at once: the cores, and a few
// more so that a folder waiting on the disk does not idle a core.
func walkers() int { return max(4, 2*runtime.GOMAXPROCS(0)) }

// repoWalk is one walk's shared state.
type repoWalk struct {
	root     string
	scan     dirent.Func
	deadline time.Time
	now      func() time.Time

	pending atomic.Int64 // folders queued, stacked or being read
	idle    atomic.Int32
	stopped atomic.Bool // the time ran out

	mu       sync.Mutex
	work     *sync.Cond // a folder was queued, or the walk ended
	jobs     []string   // folders for any worker
	finished bool
	left     []string // folders not read when the time ran out
	s        repoScan // what was found, under mu
}

func (w *repoWalk) worker() {
	buf := make([]byte, 32<<10)
	var stack []string
	for {
		if len(stack) == 0 {
			w.mu.Lock()
			for len(w.jobs) == 0 && !w.finished {
				w.idle.Add(1)
				w.work.Wait()
				w.idle.Add(-1)
			}
			if len(w.jobs) == 0 {
				w.mu.Unlock()
				return
			}
			stack = append(stack, w.jobs[len(w.jobs)-1])
			w.jobs = w.jobs[:len(w.jobs)-1]
			w.mu.Unlock()
		}
		if w.stopped.Load() || !w.now().Before(w.deadline) {
			w.stop(stack)
			return
		}
		rel := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		before := len(stack)
		stack = w.read(rel, buf, stack)
		// Count the new folders before this one is done, so pending
		// cannot touch zero while work remains.
		w.pending.Add(int64(len(stack) - before))
		if len(stack) > 1 && w.idle.Load() > 0 {
			w.mu.Lock()
			if !w.finished {
				half := len(stack) / 2
				w.jobs = append(w.jobs, stack[:half]...)
				stack = append(stack[:0], stack[half:]...)
			}
			w.mu.Unlock()
			w.work.Broadcast()
		}
		if w.pending.Add(-1) == 0 {
			w.mu.Lock()
			w.finished = true
			w.mu.Unlock()
			w.work.Broadcast()
		}
	}
}

// stop ends the walk when its time ran out: the folders of this
// worker's stack and of the shared queue are left unread, and the other
// workers stop at their next folder.
func (w *repoWalk) stop(stack []string) {
	w.stopped.Store(true)
	w.mu.Lock()
	w.left = append(append(w.left, stack...), w.jobs...)
	w.jobs = nil
	w.finished = true
	w.mu.Unlock()
	w.work.Broadcast()
}

// read lists the folder rel, notes what makes it or its entries a
// repository, and pushes the folders to look into onto stack.
func (w *repoWalk) read(rel string, buf []byte, stack []string) []string {
	dir := w.root
	if rel != "" {
		dir += "/" + rel
	}
	base := len(stack)
	var marks uint8 // bit i: gitMarkers[i] is there
	whole := rel != ""
	dotGitHere := false
	err := w.scan(dir, buf, func(name string, typ dirent.Type) {
		whole = whole && repoName(name)
		if i := markerIndex(name); i >= 0 {
			marks |= 1 << i
		}
		switch {
		case name == ".git":
			dotGitHere = true
		case rel == "" && name == ".agent":
		case typ == dirent.Dir:
			if rel == "" {
				stack = append(stack, strings.Clone(name))
			} else {
				stack = append(stack, rel+"/"+name)
			}
		}
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		// Unreadable (a mode of 000): a person can make it readable and
		// run git in it, so it is not quietly passed over.
		if fi, lerr := os.Lstat(dir); lerr == nil {
			w.mu.Lock()
			w.s.unreadable[idOf(fi)] = rel
			w.mu.Unlock()
		}
	}
	if marks != 0 {
		names := map[string]bool{}
		for i, n := range gitMarkers {
			if marks&(1<<i) != 0 {
				names[n] = true
				w.noteMarker(filepath.Join(dir, n))
			}
		}
		if names["HEAD"] && isGitDir(dir, names) {
			w.add(rel, gitDir, whole)
			if whole {
				return stack[:base]
			}
		}
	}
	if dotGitHere {
		w.add(joinRel(rel, ".git"), dotGit, false)
	}
	return stack
}

func (w *repoWalk) noteMarker(p string) {
	if fi, err := os.Lstat(p); err == nil {
		w.mu.Lock()
		w.s.markers[idOf(fi)] = true
		w.mu.Unlock()
	}
}

func (w *repoWalk) add(rel string, kind repoKind, whole bool) {
	fi, err := os.Lstat(filepath.Join(w.root, filepath.FromSlash(rel)))
	if err != nil {
		return
	}
	w.mu.Lock()
	w.s.repos = append(w.s.repos, repo{rel: rel, id: idOf(fi), kind: kind, whole: whole})
	w.mu.Unlock()
}

func markerIndex(name string) int {
	for i, m := range gitMarkers {
		if name == m {
			return i
		}
	}
	return -1
}

func joinRel(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

// unchecked says in a few words which folders a walk left unread, for a
// person: grouped by the project's top-level folder, the largest groups
// first ("node_modules/ (41210 unread folders and all below), ...").
func unchecked(unread []string) string {
	counts := map[string]int{}
	for _, rel := range unread {
		if rel == "" {
			return "the whole project"
		}
		top, _, _ := strings.Cut(rel, "/")
		counts[top]++
	}
	tops := make([]string, 0, len(counts))
	for top := range counts {
		tops = append(tops, top)
	}
	slices.SortFunc(tops, func(a, b string) int {
		if d := counts[b] - counts[a]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	const shown = 8
	var parts []string
	for i, top := range tops {
		if i == shown {
			parts = append(parts, fmt.Sprintf("and %d more top-level folders", len(tops)-shown))
			break
		}
		parts = append(parts, fmt.Sprintf("%s/ (%s and all below)", top, plural(counts[top], "unread folder")))
	}
	return strings.Join(parts, ", ")
}

package prompt

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// counter counts the files below collapsed folders with a few workers
// while the breadth-first walk goes on. Counting needs only each folder's
// entry names and types (getdents), never a stat per file. Each worker
// goes depth-first through its own stack of folders and hands half of it
// to the shared queue only when another worker is idle, so the workers
// rarely touch the lock.
type counter struct {
	ctx   context.Context
	limit int64
	scan  scanFunc

	pending atomic.Int64 // folders queued, stacked or being read
	idle    atomic.Int32
	halted  atomic.Bool // stop was called: drop the work left

	mu      sync.Mutex
	work    *sync.Cond // a job was queued, or stop
	done    *sync.Cond // pending reached zero
	jobs    []countJob
	started bool
	stopped bool
}

// countJob is one folder to count into n: the folder name inside the
// folder whose rules are parent, at abs.
type countJob struct {
	n         *node
	parent    *Dir
	abs, name string
}

func newCounter(ctx context.Context, limit int64, scan scanFunc) *counter {
	c := &counter{ctx: ctx, limit: limit, scan: scan}
	c.work = sync.NewCond(&c.mu)
	c.done = sync.NewCond(&c.mu)
	return c
}

// add queues the folder name (at abs, inside the folder whose rules are
// parent) to be counted into n.
func (c *counter) add(n *node, parent *Dir, abs, name string) {
	c.pending.Add(1)
	c.mu.Lock()
	if !c.started {
		c.started = true
		for range runtime.GOMAXPROCS(0) {
			go c.worker()
		}
	}
	c.jobs = append(c.jobs, countJob{n: n, parent: parent, abs: abs, name: name})
	c.mu.Unlock()
	c.work.Signal()
}

// addListed counts into n a folder the walk has already read (l, with
// rules d): its files now, its subfolders by the workers.
func (c *counter) addListed(n *node, d *Dir, abs string, l *listing) {
	n.files.Add(countListing(l, d, abs, func(sub countJob) { c.add(n, d, sub.abs, sub.name) }))
}

// countListing returns how many files of listing l (a folder at abs, with
// rules d) are not ignored, and hands each kept subfolder to folder.
func countListing(l *listing, d *Dir, abs string, folder func(countJob)) int64 {
	var files int64
	for i, e := range l.ents {
		name := l.name(i)
		if e.typ == typeOther || d.Ignored(name, e.typ == typeDir) {
			continue // pipes, sockets and devices are no files (see filter)
		}
		if e.typ != typeDir {
			files++
			continue
		}
		name = strings.Clone(name)
		folder(countJob{parent: d, abs: abs + string(filepath.Separator) + name, name: name})
	}
	return files
}

// wait blocks until every queued folder is counted.
func (c *counter) wait() {
	c.mu.Lock()
	for c.pending.Load() > 0 {
		c.done.Wait()
	}
	c.mu.Unlock()
}

// stop ends the workers; counting left undone is abandoned.
func (c *counter) stop() {
	c.halted.Store(true)
	c.mu.Lock()
	c.stopped = true
	c.jobs = nil
	c.mu.Unlock()
	c.work.Broadcast()
}

func (c *counter) worker() {
	var l listing
	var stack []countJob
	for {
		if len(stack) == 0 {
			c.mu.Lock()
			for len(c.jobs) == 0 && !c.stopped {
				c.idle.Add(1)
				c.work.Wait()
				c.idle.Add(-1)
			}
			if c.stopped {
				c.mu.Unlock()
				return
			}
			stack = append(stack, c.jobs[len(c.jobs)-1])
			c.jobs = c.jobs[:len(c.jobs)-1]
			c.mu.Unlock()
		}
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		before := len(stack)
		stack = c.run(j, &l, stack)
		// Count the new folders before this one is done, so pending
		// cannot touch zero while work remains.
		c.pending.Add(int64(len(stack) - before))
		if len(stack) > 1 && c.idle.Load() > 0 {
			half := len(stack) / 2
			c.mu.Lock()
			c.jobs = append(c.jobs, stack[:half]...)
			c.mu.Unlock()
			stack = append(stack[:0], stack[half:]...)
			c.work.Broadcast()
		}
		if c.pending.Add(-1) == 0 {
			c.mu.Lock()
			c.done.Broadcast()
			c.mu.Unlock()
		}
	}
}

// run counts one folder's files into j.n and pushes its subfolders onto
// stack. A folder that cannot be read counts as empty.
func (c *counter) run(j countJob, l *listing, stack []countJob) []countJob {
	if c.halted.Load() || c.ctx.Err() != nil || j.n.files.Load() >= c.limit {
		return stack
	}
	if err := l.read(c.scan, j.abs); err != nil {
		return stack
	}
	d := j.parent.sub(j.name, l.hasGit, l.hasAgent)
	j.n.files.Add(countListing(l, d, j.abs, func(sub countJob) {
		sub.n = j.n
		stack = append(stack, sub)
	}))
	return stack
}

package prompt

import (
	"context"
	"io/fs"
	"path/filepath"
	"runtime"
	"sync"
)

// counter counts the files below collapsed folders with a few workers,
// while the breadth-first walk goes on. Counting needs only each folder's
// entry names and types (getdents), never a stat per file.
type counter struct {
	ctx     context.Context
	limit   int64
	readDir func(string) ([]fs.DirEntry, error)

	mu      sync.Mutex
	cond    *sync.Cond
	jobs    []countJob // a stack: depth-first keeps it short
	pending int        // jobs queued or running
	stopped bool
	started bool
}

// countJob is one folder to count into n: either still to be read (ents
// nil, dir is the parent's rules) or already read and filtered (kids).
type countJob struct {
	n         *node
	dir       *Dir
	abs, name string
	kids      []*node
	read      bool
}

func newCounter(ctx context.Context, limit int64, readDir func(string) ([]fs.DirEntry, error)) *counter {
	c := &counter{ctx: ctx, limit: limit, readDir: readDir}
	c.cond = sync.NewCond(&c.mu)
	return c
}

// add queues the folder name (at abs, inside a folder with rules parent)
// to be counted into n.
func (c *counter) add(n *node, parent *Dir, abs, name string) {
	c.push([]countJob{{n: n, dir: parent, abs: abs, name: name}})
}

// addRead queues a folder whose entries were already read and filtered.
func (c *counter) addRead(n *node, d *Dir, abs string, kids []*node) {
	c.push([]countJob{{n: n, dir: d, abs: abs, kids: kids, read: true}})
}

func (c *counter) push(jobs []countJob) {
	c.mu.Lock()
	if !c.started {
		c.started = true
		for range runtime.GOMAXPROCS(0) {
			go c.work()
		}
	}
	c.jobs = append(c.jobs, jobs...)
	c.pending += len(jobs)
	c.mu.Unlock()
	c.cond.Broadcast()
}

// wait blocks until every queued folder is counted.
func (c *counter) wait() {
	c.mu.Lock()
	for c.pending > 0 {
		c.cond.Wait()
	}
	c.mu.Unlock()
}

// stop ends the workers; counting left undone is abandoned.
func (c *counter) stop() {
	c.mu.Lock()
	c.stopped = true
	c.jobs = nil
	c.mu.Unlock()
	c.cond.Broadcast()
}

func (c *counter) work() {
	var more []countJob
	for ran := false; ; ran = true {
		c.mu.Lock()
		if ran {
			c.jobs = append(c.jobs, more...)
			c.pending += len(more) - 1 // the job just run is done
			if len(more) > 0 || c.pending == 0 {
				c.cond.Broadcast()
			}
		}
		for len(c.jobs) == 0 && !c.stopped {
			c.cond.Wait()
		}
		if c.stopped {
			c.mu.Unlock()
			return
		}
		j := c.jobs[len(c.jobs)-1]
		c.jobs = c.jobs[:len(c.jobs)-1]
		c.mu.Unlock()
		more = c.run(j, more[:0])
	}
}

// run counts one folder's files into j.n and returns its subfolders as new
// jobs appended to more.
func (c *counter) run(j countJob, more []countJob) []countJob {
	if c.ctx.Err() != nil || j.n.files.Load() >= c.limit {
		return more
	}
	var files int64
	if j.read {
		for _, k := range j.kids {
			if !k.isDir {
				files++
				continue
			}
			more = append(more, countJob{n: j.n, dir: j.dir, abs: j.abs + string(filepath.Separator) + k.name, name: k.name})
		}
	} else {
		ents, err := c.readDir(j.abs)
		if err != nil {
			return more
		}
		d := j.dir.Sub(j.name, ents)
		for _, e := range ents {
			isDir := e.IsDir()
			if d.Ignored(e.Name(), isDir) {
				continue
			}
			if !isDir {
				files++
				continue
			}
			more = append(more, countJob{n: j.n, dir: d, abs: j.abs + string(filepath.Separator) + e.Name(), name: e.Name()})
		}
	}
	j.n.files.Add(files)
	return more
}

package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"
)

// ErrOtherProcess is returned by Stop for an active job that another
// agent process runs: only its owner can stop it from here.
var ErrOtherProcess = errors.New("the job belongs to another agent process")

// ErrClosed is returned by Start once the Manager is closed.
var ErrClosed = errors.New("the conversation's jobs are closed")

// Runner runs job j's process to its end; package shell provides it.
// It starts the process with j.Mark() in its environment, calls started
// with its pid as soon as it runs, writes the output to out as it comes,
// and returns how the process ended. When ctx ends it stops the process
// (SIGTERM, then SIGKILL after a grace period) and returns.
type Runner func(ctx context.Context, j Job, out io.Writer, started func(pid int)) End

// Options configure a Manager.
type Options struct {
	// Path is the database file (.agent/jobs.db); LogDir the folder of
	// the jobs' output files (.agent/jobs).
	Path, LogDir string
	// Prepare runs before the database is first created: it makes the
	// project's state folder the way the project always does (with its
	// .gitignore).
	Prepare func() error
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// Manager is the background jobs of one conversation: it starts them,
// stops them, reads their output and collects the notices of those that
// ended. It opens the database on first use. Its methods are safe for
// concurrent use.
type Manager struct {
	opts Options
	self Process

	mu      sync.Mutex
	store   *Store
	active  map[int64]*running
	ended   []ended        // not told yet, oldest first
	seen    map[int64]bool // ended jobs whose end the model already read
	closed  bool
	wg      sync.WaitGroup
	base    context.Context // the parent of every job's context
	stopAll context.CancelFunc
}

// running is a job of this process whose process has not ended.
type running struct {
	job    Job
	cancel context.CancelFunc
	log    *logFile
	stopBy string // who stopped it, "" when nobody did
	quiet  bool   // its end is not told (the conversation is closing)
	done   chan struct{}
	final  Job // as recorded at its end, once done is closed
}

// ended is a job whose end the model was not told yet.
type ended struct {
	job Job
	end End
}

// NewManager returns the Manager of the database o.Path. When the file
// exists it is opened now, so jobs left active by a killed agent are
// marked lost at the start of the next one; an error then is met again
// at first use.
func NewManager(o Options) *Manager {
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{opts: o, self: Self(), active: map[int64]*running{}, seen: map[int64]bool{}, base: ctx, stopAll: cancel}
	if _, err := os.Lstat(o.Path); err == nil {
		m.open(ctx)
	}
	return m
}

func (m *Manager) now() time.Time {
	if m.opts.Now != nil {
		return m.opts.Now()
	}
	return time.Now()
}

// open returns the store, opening it the first time.
func (m *Manager) open(ctx context.Context) (*Store, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.store != nil {
		return m.store, nil
	}
	if m.closed {
		return nil, ErrClosed
	}
	if _, err := os.Lstat(m.opts.Path); errors.Is(err, fs.ErrNotExist) && m.opts.Prepare != nil {
		if err := m.opts.Prepare(); err != nil {
			return nil, err
		}
	}
	s, err := Open(ctx, m.opts.Path, m.opts.LogDir)
	if err != nil {
		return nil, err
	}
	m.store = s
	return s, nil
}

// Start records a job for spec and starts it with run, returning the
// job once its process runs (or once it failed to start, as recorded).
// The row is written before Start returns, so nobody is told of a job
// that is not recorded. An active job with the same dedupe key is a
// duplicate: it is returned with dup true and nothing starts.
func (m *Manager) Start(ctx context.Context, spec Spec, run Runner) (j Job, dup bool, err error) {
	st, err := m.open(ctx)
	if err != nil {
		return j, false, err
	}
	if m.isClosed() {
		return j, false, ErrClosed
	}
	j, dup, err = st.Enqueue(ctx, spec, m.self, m.now())
	if err != nil || dup {
		return j, dup, err
	}
	rec := context.WithoutCancel(ctx) // the records are kept even if the call is cancelled
	log, err := createLog(st.LogPath(j.ID), func(dropped int64) { st.SetDropped(rec, j.ID, dropped) })
	if err != nil {
		st.Finish(rec, j.ID, End{Err: err.Error()}, "", m.now())
		return j, false, err
	}
	jctx, cancel := context.WithCancel(m.base)
	r := &running{job: j, cancel: cancel, log: log, done: make(chan struct{})}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		cancel()
		log.close()
		st.Finish(rec, j.ID, End{Err: ErrClosed.Error()}, "", m.now())
		return j, false, ErrClosed
	}
	m.active[j.ID] = r
	m.wg.Add(1)
	m.mu.Unlock()

	// The job as it started (running), or as it ended when it never did.
	type start struct {
		j   Job
		err error
	}
	started := make(chan start, 1)
	go func() {
		defer m.wg.Done()
		var once sync.Once
		end := run(jctx, j, log, func(pid int) {
			err := st.MarkRunning(rec, j.ID, ProcessOf(pid), m.now())
			var now Job
			if err == nil {
				now, err = st.Get(rec, j.ID)
			}
			if err != nil {
				m.mu.Lock()
				r.stopBy = "its start could not be recorded"
				m.mu.Unlock()
				cancel() // a job nobody can see must not run
			}
			once.Do(func() { started <- start{now, err} })
		})
		m.finish(st, r, end)
		once.Do(func() {
			m.told(j.ID) // Start's caller reports the failure
			started <- start{r.final, nil}
		})
	}()
	s := <-started
	if s.err != nil {
		<-r.done
		return r.final, false, s.err
	}
	return s.j, false, nil
}

// finish records how r ended and keeps its notice.
func (m *Manager) finish(st *Store, r *running, end End) {
	r.log.close()
	m.mu.Lock()
	stopBy, quiet := r.stopBy, r.quiet
	m.mu.Unlock()
	j, err := st.Finish(context.Background(), r.job.ID, end, stopBy, m.now())
	if err != nil {
		j = r.job
		j.Status, j.LastError = Failed, fmt.Sprintf("its end could not be recorded: %v", err)
	}
	m.mu.Lock()
	delete(m.active, r.job.ID)
	r.final = j
	if !quiet {
		m.ended = append(m.ended, ended{job: j, end: end})
	}
	m.mu.Unlock()
	r.cancel()
	close(r.done)
}

func (m *Manager) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

// Stop stops job id, which this process runs, and returns it once its
// end is recorded; by says who stopped it ("stopped with job_stop"). A
// job that already ended is returned as it is; an active job of
// another agent process gives ErrOtherProcess.
func (m *Manager) Stop(ctx context.Context, id int64, by string) (Job, error) {
	m.mu.Lock()
	r := m.active[id]
	if r != nil && r.stopBy == "" {
		r.stopBy = by
	}
	m.mu.Unlock()
	if r == nil {
		j, err := m.Get(ctx, id)
		if err == nil && j.Status.Active() {
			err = ErrOtherProcess
		}
		return j, err
	}
	r.cancel()
	select {
	case <-r.done:
		return r.final, nil
	case <-ctx.Done():
		return r.job, ctx.Err()
	}
}

// Get returns job id as recorded (ErrNotFound when there is none).
func (m *Manager) Get(ctx context.Context, id int64) (Job, error) {
	st, err := m.open(ctx)
	if err != nil {
		return Job{}, err
	}
	return st.Get(ctx, id)
}

// List returns the project's recorded jobs, oldest first: those of
// other agent processes too.
func (m *Manager) List(ctx context.Context) ([]Job, error) {
	st, err := m.open(ctx)
	if err != nil {
		return nil, err
	}
	return st.List(ctx)
}

// Mine reports whether job id runs in this process.
func (m *Manager) Mine(id int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.active[id] != nil
}

// output reads job j's output (see readLog).
func (m *Manager) output(j Job, from int64, max int) (Chunk, error) {
	m.mu.Lock()
	r, st := m.active[j.ID], m.store
	m.mu.Unlock()
	if r != nil {
		r.log.mu.Lock()
		defer r.log.mu.Unlock()
		return readLog(r.log.path, r.log.dropped, from, max)
	}
	return st.Output(j, from, max)
}

// told marks job id's end as known to the model: its notice is not sent.
func (m *Manager) told(id int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seen[id] = true
}

// Close stops every job this process runs (recorded as stopped: the
// conversation ended), waits for their ends to be recorded, and closes
// the database.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	for _, r := range m.active {
		if r.stopBy == "" {
			r.stopBy = "the conversation ended"
		}
		r.quiet = true
	}
	m.mu.Unlock()
	m.stopAll()
	m.wg.Wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.store == nil {
		return nil
	}
	err := m.store.Close()
	m.store = nil
	return err
}

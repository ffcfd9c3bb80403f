package lsp

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentcli/agent/tools"
)

// Defaults of Options.
const (
	DefaultQuiet     = time.Second     // done once nothing new came for this long
	DefaultFirstWait = 5 * time.Second // at most, the first check of a server just started
	DefaultWait      = 3 * time.Second // at most, every later check
	// MaxRestarts is how often a server that died is started again.
	MaxRestarts = 2
)

const (
	maxCheckedFiles = 20      // of one call; a command that changed more has the first checked
	maxFileSize     = 4 << 20 // larger files are not sent to a server
	stopGrace       = 2 * time.Second
)

// Options configure a Manager.
type Options struct {
	// Root is the project folder, absolute.
	Root string
	// Servers are the servers that may start, the preferred first: a
	// file is served by the first whose file types hold its type.
	Servers []Spec
	// Missing are known servers that cannot start (no program on the
	// trusted PATH), with why: a changed file of theirs is told so once.
	Missing map[string]string
	// Command is the sandboxed command that runs spec with its workspace
	// folder root (not started).
	Command func(spec Spec, root string) (*exec.Cmd, error)
	// Read reads the project file rel (project-relative) under the file
	// tools' rules, at most max bytes, and its whole size.
	Read func(rel string, max int64) ([]byte, int64, error)
	// Warnings adds warnings to errors in what a check reports.
	Warnings bool
	// Quiet, FirstWait and Wait time a check (DefaultQuiet and the
	// others when zero): done once every changed file has diagnostics
	// newer than its change and nothing new came for Quiet; at most
	// FirstWait for a server's first check, Wait for the later ones.
	Quiet, FirstWait, Wait time.Duration
	// Version is the agent's, told to the servers.
	Version string
	// StatusFile, when set, is where each check leaves Status, for agent
	// lsp (StatusPath); Prepare makes its folder first.
	StatusFile string
	Prepare    func() error
}

// Manager runs the language servers of one conversation: each started
// on the first read or write of a file it serves, restarted at most
// MaxRestarts times when it dies, all ended by Close.
type Manager struct {
	o    Options
	root string // o.Root with links resolved: the servers' paths

	mu     sync.Mutex
	insts  map[string]*instance // by server name and root
	order  []string             // the keys, as started
	said   map[string]bool      // notes already given
	closed bool
}

// instance is one server for one root, across its restarts.
type instance struct {
	spec     Spec
	root     string
	srv      *server
	restarts int
	gaveUp   error
	last     *tools.Diagnostics // its last check's
}

// New returns a Manager for o; nothing starts until a file is touched.
func New(o Options) *Manager {
	if o.Quiet <= 0 {
		o.Quiet = DefaultQuiet
	}
	if o.FirstWait <= 0 {
		o.FirstWait = DefaultFirstWait
	}
	if o.Wait <= 0 {
		o.Wait = DefaultWait
	}
	root := filepath.Clean(o.Root)
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	return &Manager{o: o, root: root, insts: map[string]*instance{}, said: map[string]bool{}}
}

// HasServers reports whether any server may start.
func (m *Manager) HasServers() bool { return len(m.o.Servers) > 0 }

// specFor is the server of the file at abs, if any may start.
func (m *Manager) specFor(abs string) (Spec, bool) {
	for _, s := range m.o.Servers {
		if s.Serves(abs) {
			return s, true
		}
	}
	return Spec{}, false
}

// abs is the absolute path of the project path p (relative, or absolute
// inside the project); "" for one outside.
func (m *Manager) abs(p string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(m.root, p)
	} else if !within(m.root, p) && within(filepath.Clean(m.o.Root), p) {
		rel, _ := filepath.Rel(filepath.Clean(m.o.Root), p)
		p = filepath.Join(m.root, rel)
	}
	p = filepath.Clean(p)
	if !within(m.root, p) {
		return ""
	}
	return p
}

// rel is abs relative to the project, slash-separated.
func (m *Manager) rel(abs string) string {
	r, err := filepath.Rel(m.root, abs)
	if err != nil || !within(m.root, abs) {
		return abs
	}
	return filepath.ToSlash(r)
}

// Touch starts the server of the file at p (a project path) if it has
// one that is not running: a read of a file warms its server up for the
// edit that may follow. It does not wait.
func (m *Manager) Touch(p string) {
	abs := m.abs(p)
	if abs == "" {
		return
	}
	if spec, ok := m.specFor(abs); ok {
		m.server(spec, findRoot(m.root, abs, spec.RootMarkers))
	}
}

// maxItems bounds the diagnostics a check reports one by one.
const maxItems = 10

// server is the running server of spec for root, started when it is not
// (again, after it died, MaxRestarts times at most); its error says why
// there is none.
func (m *Manager) server(spec Spec, root string) (*server, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, errors.New("the conversation has ended")
	}
	key := spec.Name + "\x00" + root
	in := m.insts[key]
	if in == nil {
		in = &instance{spec: spec, root: root}
		m.insts[key] = in
		m.order = append(m.order, key)
	}
	if in.gaveUp != nil {
		return nil, in.gaveUp
	}
	if in.srv != nil {
		err := in.srv.err()
		if err == nil {
			return in.srv, nil
		}
		if in.restarts >= MaxRestarts {
			in.gaveUp = fmt.Errorf("%w; it was started %d times and is not started again", err, in.restarts+1)
			return nil, in.gaveUp
		}
		in.restarts++
		in.srv = nil
	}
	cmd, err := m.o.Command(spec, root)
	if err == nil {
		in.srv, err = startServer(spec, root, cmd, m.o.Version)
	}
	if err != nil {
		in.gaveUp = err
		return nil, err
	}
	return in.srv, nil
}

// AfterCall is the Registry's After step: the files a call changed are
// checked and their diagnostics added to its result; a file a call only
// read starts its server.
func (m *Manager) AfterCall(ctx context.Context, def tools.Definition, in tools.Input, res *tools.Result) {
	if len(res.Changed) == 0 {
		for _, name := range def.PathParams() {
			if p, ok := in.Values[name].(string); ok {
				m.Touch(p)
			}
		}
		return
	}
	d := m.Check(ctx, res.Changed, res.Created, res.Deleted)
	if d == nil {
		return
	}
	res.Diagnostics = d
	if res.Content != "" && !strings.HasSuffix(res.Content, "\n") {
		res.Content += "\n"
	}
	if res.Content != "" {
		res.Content += "\n"
	}
	res.Content += Text(d)
}

// job is the part of a check one server does.
type job struct {
	srv     *server
	fresh   bool
	changes []change
	first   bool
	err     error
}

// Check sends the changed files (project paths; created and deleted
// among them as the call knows) to their servers and waits for their
// diagnostics (Options' Quiet, FirstWait, Wait). It returns nil when no
// file has a server and nothing needs saying.
func (m *Manager) Check(ctx context.Context, changed, created, deleted []string) *tools.Diagnostics {
	d := &tools.Diagnostics{}
	jobs := map[*server]*job{}
	var notes []string
	for _, p := range changed {
		abs := m.abs(p)
		if abs == "" {
			continue
		}
		spec, ok := m.specFor(abs)
		if !ok {
			notes = append(notes, m.missing(abs))
			continue
		}
		if len(d.Files) == maxCheckedFiles {
			notes = append(notes, m.once("many", fmt.Sprintf("only the first %d changed files were checked", maxCheckedFiles)))
			break
		}
		srv, err := m.server(spec, findRoot(m.root, abs, spec.RootMarkers))
		if err != nil {
			notes = append(notes, m.once("failed "+spec.Name, fmt.Sprintf("%s is not running: %v", spec.Name, err)))
			continue
		}
		c := change{path: abs, created: slices.Contains(created, p), deleted: slices.Contains(deleted, p)}
		if !c.deleted {
			data, size, err := m.o.Read(m.rel(abs), maxFileSize)
			if err != nil || size > maxFileSize {
				continue // unreadable now, or too large to send
			}
			c.text = string(data)
		}
		j := jobs[srv]
		if j == nil {
			j = &job{srv: srv}
			jobs[srv] = j
		}
		j.changes = append(j.changes, c)
		d.Files = append(d.Files, m.rel(abs))
	}
	m.run(ctx, jobs)
	for _, j := range jobs {
		notes = append(notes, m.collect(j, d))
	}
	d.Note = joinNotes(notes)
	sortItems(d.Items)
	if len(d.Items) > maxItems {
		d.Items = d.Items[:maxItems]
	}
	if len(jobs) > 0 {
		m.saveStatus()
	}
	if len(d.Files) == 0 && d.Note == "" {
		return nil
	}
	return d
}

// run does every server's part of a check at once.
func (m *Manager) run(ctx context.Context, jobs map[*server]*job) {
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j.fresh, j.err = m.checkOne(ctx, j)
		}()
	}
	wg.Wait()
}

// checkOne sends one server its files and waits for its diagnostics.
func (m *Manager) checkOne(ctx context.Context, j *job) (bool, error) {
	s := j.srv
	s.mu.Lock()
	j.first = !s.checked
	s.checked = true
	s.mu.Unlock()
	limit := m.o.Wait
	if j.first {
		limit = m.o.FirstWait
	}
	deadline := time.Now().Add(limit)
	wait, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	select {
	case <-s.ready:
	case <-wait.Done():
		return false, nil
	}
	if err := s.err(); err != nil {
		return false, err
	}
	if err := s.sync(j.changes); err != nil {
		return false, err
	}
	paths := make([]string, 0, len(j.changes))
	for _, c := range j.changes {
		if !c.deleted {
			paths = append(paths, c.path)
		}
	}
	fresh := s.wait(ctx, paths, m.o.Quiet, deadline)
	if !fresh {
		return false, s.err()
	}
	return true, nil
}

// collect adds one server's diagnostics to d, and returns what must be
// said of it (once): it stopped, or did not answer in time.
func (m *Manager) collect(j *job, d *tools.Diagnostics) string {
	name := j.srv.spec.Name
	var note string
	switch {
	case j.err != nil:
		note = m.once("stopped "+name+fmt.Sprint(j.srv.started.UnixNano()), fmt.Sprintf("%s stopped: %v", name, j.err))
	case !j.fresh:
		limit := m.o.Wait
		if j.first {
			limit = m.o.FirstWait
		}
		note = m.once("slow "+name, fmt.Sprintf("%s did not report within %s", name, limit))
	}
	if j.err != nil {
		return note
	}
	changed := map[string]bool{}
	for _, c := range j.changes {
		changed[c.path] = true
	}
	mine := &tools.Diagnostics{}
	for path, items := range j.srv.diagnostics() {
		for _, it := range items {
			switch {
			case !changed[path]:
				if it.Severity == severityError {
					d.Elsewhere++
					mine.Elsewhere++
				}
			case it.Severity == severityError || m.o.Warnings && it.Severity == severityWarning:
				item := m.item(path, it)
				for _, t := range []*tools.Diagnostics{d, mine} {
					if it.Severity == severityError {
						t.Errors++
					} else {
						t.Warnings++
					}
					t.Items = append(t.Items, item)
				}
			}
		}
	}
	sortItems(mine.Items)
	if len(mine.Items) > maxItems {
		mine.Items = mine.Items[:maxItems]
	}
	for p := range changed {
		mine.Files = append(mine.Files, m.rel(p))
	}
	m.mu.Lock()
	if in := m.insts[j.srv.spec.Name+"\x00"+j.srv.root]; in != nil {
		in.last = mine
	}
	m.mu.Unlock()
	return note
}

// item is a diagnostic as the agent shows it: a project path, line and
// column from 1, the message on one line.
func (m *Manager) item(path string, it diagnostic) tools.Diagnostic {
	sev := "error"
	if it.Severity == severityWarning {
		sev = "warning"
	}
	return tools.Diagnostic{Path: m.rel(path), Line: it.Range.Start.Line + 1, Column: it.Range.Start.Character + 1,
		Severity: sev, Message: oneLine(it.Message, 300), Source: oneLine(it.Source, 40)}
}

func sortItems(items []tools.Diagnostic) {
	slices.SortStableFunc(items, func(a, b tools.Diagnostic) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
}

// missing says once, for a file type whose known server cannot start,
// why it has no diagnostics; "" for a file no known server serves.
func (m *Manager) missing(abs string) string {
	for _, s := range Known {
		if why, ok := m.o.Missing[s.Name]; ok && s.Serves(abs) {
			return m.once("missing "+FileType(abs), fmt.Sprintf("no language server for %s files (%s)", FileType(abs), why))
		}
	}
	return ""
}

// once returns note the first time key is given, "" after.
func (m *Manager) once(key, note string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.said[key] {
		return ""
	}
	m.said[key] = true
	return note
}

func joinNotes(notes []string) string {
	notes = slices.DeleteFunc(notes, func(n string) bool { return n == "" })
	return strings.Join(slices.Compact(notes), "; ")
}

// Close ends every server: shutdown and exit, then their process groups
// are killed after a grace period.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	started := len(m.insts) > 0
	var srvs []*server
	for _, in := range m.insts {
		if in.srv != nil {
			srvs = append(srvs, in.srv)
		}
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range srvs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.stop(stopGrace)
		}()
	}
	wg.Wait()
	if started {
		m.saveStatus()
	}
	return nil
}

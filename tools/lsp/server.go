package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Bounds on what one server may make the agent keep: a server is a
// program the project steers.
const (
	maxOpenDocuments   = 64  // the least recently used is closed past it
	maxFileDiagnostics = 100 // kept per file
	maxDiagnosedFiles  = 2000
	stderrTail         = 4 << 10
)

// server is one running language server: its process in the sandbox,
// the documents it was sent and the diagnostics it published.
type server struct {
	spec Spec
	root string // its workspace folder, absolute

	cmd    *exec.Cmd
	conn   *conn
	stderr *tail
	ready  chan struct{} // closed once initialized, or failed to be
	exited chan struct{} // closed when the process has ended

	mu        sync.Mutex
	started   time.Time
	initErr   error // why it did not start, or ended
	closing   bool
	docs      map[string]*document // by absolute path
	uses      uint64               // a clock for the documents' last use
	diags     map[string]fileDiagnostics
	publishes uint64
	published chan struct{} // closed and replaced at each publish
	checked   bool          // a check has waited for it before
}

// document is a file the server was sent (didOpen) and not closed.
type document struct {
	version int
	text    string
	sentAt  uint64 // publishes received when the last change was sent
	used    uint64
	// changed is when the last change was sent, answered when the
	// server first published diagnostics for it (the benchmarks'
	// measure of the server's own time).
	changed, answered time.Time
}

// fileDiagnostics are the last diagnostics published for one file.
type fileDiagnostics struct {
	version *int
	at      uint64 // the publish's number
	items   []diagnostic
}

// startServer starts cmd (not yet started: the sandboxed command of
// spec) and initializes the server with root as its workspace folder.
// It returns once the process runs; ready says when it is initialized.
func startServer(spec Spec, root string, cmd *exec.Cmd, version string) (*server, error) {
	s := &server{spec: spec, root: root, cmd: cmd, stderr: &tail{max: stderrTail},
		ready: make(chan struct{}), exited: make(chan struct{}), started: time.Now(),
		docs: map[string]*document{}, diags: map[string]fileDiagnostics{}, published: make(chan struct{})}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", spec.Name, err)
	}
	s.conn = newConn(stdout, stdin, s.handle)
	go func() { // a server whose stream broke (a bad frame) is ended
		select {
		case <-s.conn.done:
			s.kill()
		case <-s.exited:
		}
	}()
	go func() {
		err := cmd.Wait()
		s.mu.Lock()
		if s.initErr == nil && !s.closing {
			s.initErr = exitError(err, s.stderr.String())
		}
		s.mu.Unlock()
		close(s.exited) // first: kill must not signal a reaped process's group
		s.conn.stop(errClosed)
	}()
	go s.initialize(version)
	return s, nil
}

// initialize sends initialize and initialized; ready is closed after.
func (s *server) initialize(version string) {
	defer close(s.ready)
	folder := map[string]string{"uri": fileURI(s.root), "name": filepath.Base(s.root)}
	params := map[string]any{
		// No process id: the server runs in a PID namespace of its
		// own, where the agent's would name nobody (and a Node server
		// that checks it would quit).
		"processId":        nil,
		"clientInfo":       map[string]string{"name": "agent", "version": version},
		"rootUri":          fileURI(s.root),
		"rootPath":         s.root,
		"workspaceFolders": []any{folder},
		"capabilities":     json.RawMessage(clientCapabilities),
	}
	ctx, cancel := context.WithTimeout(context.Background(), initTimeout)
	defer cancel()
	go func() { // a server that ends while initializing ends the wait
		select {
		case <-s.exited:
			cancel()
		case <-ctx.Done():
		}
	}()
	err := s.conn.call(ctx, "initialize", params, nil)
	if err == nil {
		err = s.conn.notify("initialized", struct{}{})
	}
	if err != nil {
		s.mu.Lock()
		if s.initErr == nil {
			s.initErr = fmt.Errorf("initialize: %w", err)
		}
		s.mu.Unlock()
		s.kill()
	}
}

// initTimeout bounds a server's start: after it the server is taken
// for broken and ended.
var initTimeout = time.Minute

// clientCapabilities are what the agent tells servers it can do: full
// document sync with saves, versioned diagnostics, and the requests of
// the lsp tool. (Written as JSON: no map built at start-up.)
const clientCapabilities = `{
	"textDocument": {
		"synchronization": {"didSave": true},
		"publishDiagnostics": {"versionSupport": true},
		"hover": {"contentFormat": ["plaintext", "markdown"]},
		"definition": {"linkSupport": true},
		"references": {},
		"documentSymbol": {"hierarchicalDocumentSymbolSupport": true}
	},
	"workspace": {
		"workspaceFolders": true,
		"configuration": true,
		"symbol": {},
		"didChangeWatchedFiles": {"dynamicRegistration": true},
		"applyEdit": false
	},
	"window": {"workDoneProgress": false}
}`

// handle answers what the server sends of its own.
func (s *server) handle(method string, params json.RawMessage, request bool) (any, error) {
	switch method {
	case "textDocument/publishDiagnostics":
		var p publishDiagnostics
		if json.Unmarshal(params, &p) == nil {
			s.store(p)
		}
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		json.Unmarshal(params, &p)
		return make([]any, min(len(p.Items), 100)), nil // no settings: each server's defaults
	case "workspace/workspaceFolders":
		return []any{map[string]string{"uri": fileURI(s.root), "name": filepath.Base(s.root)}}, nil
	case "workspace/applyEdit":
		return map[string]any{"applied": false, "failureReason": "the agent's language servers only read"}, nil
	case "client/registerCapability", "client/unregisterCapability", "window/workDoneProgress/create",
		"window/showMessageRequest", "window/showDocument":
		return nil, nil
	default:
		if request {
			return nil, fmt.Errorf("method not supported: %s", method)
		}
	}
	return nil, nil
}

// store keeps a publish of diagnostics and wakes those waiting.
func (s *server) store(p publishDiagnostics) {
	path := uriPath(p.URI)
	if path == "" {
		return
	}
	if len(p.Diagnostics) > maxFileDiagnostics {
		p.Diagnostics = p.Diagnostics[:maxFileDiagnostics]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.publishes++
	if _, known := s.diags[path]; known || len(s.diags) < maxDiagnosedFiles {
		s.diags[path] = fileDiagnostics{version: p.Version, at: s.publishes, items: p.Diagnostics}
	}
	if d := s.docs[path]; d != nil && d.answered.IsZero() && s.fresh(path) {
		d.answered = time.Now()
	}
	close(s.published)
	s.published = make(chan struct{})
}

// change is one file for the server: its new text, or gone.
type change struct {
	path             string // absolute
	text             string
	created, deleted bool
}

// sync tells the server of changed files: didOpen for a new one,
// didChange and didSave for an open one, didClose for a deleted one, and
// didChangeWatchedFiles for all, as an editor's file watcher would.
func (s *server) sync(changes []change) error {
	var events []map[string]any
	for _, c := range changes {
		kind := 2 // changed
		switch {
		case c.deleted:
			kind = 3
			s.mu.Lock()
			delete(s.docs, c.path)
			delete(s.diags, c.path)
			s.mu.Unlock()
		case c.created:
			kind = 1
		}
		events = append(events, map[string]any{"uri": fileURI(c.path), "type": kind})
	}
	if err := s.conn.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": events}); err != nil {
		return err
	}
	for _, c := range changes {
		var err error
		switch {
		case c.deleted:
			err = s.conn.notify("textDocument/didClose", map[string]any{"textDocument": map[string]string{"uri": fileURI(c.path)}})
		default:
			err = s.put(c.path, c.text, true)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// put makes the server's copy of the file at path hold text: didOpen
// when it has none, didChange when it differs (and didSave when saved
// says the file on disk is that text).
func (s *server) put(path, text string, saved bool) error {
	uri := fileURI(path)
	s.mu.Lock()
	s.uses++
	d := s.docs[path]
	switch {
	case d == nil:
		d = &document{version: 1, text: text, sentAt: s.publishes, used: s.uses, changed: time.Now()}
		s.docs[path] = d
		evicted := s.evict()
		s.mu.Unlock()
		for _, p := range evicted {
			s.conn.notify("textDocument/didClose", map[string]any{"textDocument": map[string]string{"uri": fileURI(p)}})
		}
		return s.conn.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": uri, "languageId": languageID(FileType(path)), "version": d.version, "text": text}})
	case d.text == text && !saved:
		d.used = s.uses
		s.mu.Unlock()
		return nil
	}
	d.version++
	d.text, d.sentAt, d.used = text, s.publishes, s.uses
	d.changed, d.answered = time.Now(), time.Time{}
	version := d.version
	s.mu.Unlock()
	err := s.conn.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]string{"text": text}}})
	if err == nil && saved {
		err = s.conn.notify("textDocument/didSave", map[string]any{"textDocument": map[string]string{"uri": uri}})
	}
	return err
}

// evict drops the least recently used documents past maxOpenDocuments
// and returns their paths, for didClose; s.mu is held.
func (s *server) evict() []string {
	var out []string
	for len(s.docs) > maxOpenDocuments {
		var oldest string
		for p, d := range s.docs {
			if oldest == "" || d.used < s.docs[oldest].used {
				oldest = p
			}
		}
		delete(s.docs, oldest)
		out = append(out, oldest)
	}
	return out
}

// fresh reports whether the diagnostics of path answer its last change:
// published for its version, or, from a server that gives no versions,
// published after the change was sent. s.mu is held.
func (s *server) fresh(path string) bool {
	d, f := s.docs[path], s.diags[path]
	switch {
	case d == nil:
		return true // closed or never opened: nothing to wait for
	case f.at == 0:
		return false
	case f.version != nil:
		return *f.version >= d.version
	}
	return f.at > d.sentAt
}

// wait waits until the diagnostics of paths are fresh and no publish has
// come for quiet, or until deadline; it reports whether they were fresh.
func (s *server) wait(ctx context.Context, paths []string, quiet time.Duration, deadline time.Time) bool {
	stop := time.NewTimer(time.Until(deadline))
	defer stop.Stop()
	calm := time.NewTimer(quiet)
	defer calm.Stop()
	settled := false
	for {
		s.mu.Lock()
		fresh := true
		for _, p := range paths {
			fresh = fresh && s.fresh(p)
		}
		next := s.published
		s.mu.Unlock()
		if fresh && settled {
			return true
		}
		select {
		case <-next:
			settled = false
			calm.Reset(quiet)
		case <-calm.C:
			settled = true
		case <-stop.C:
			return fresh
		case <-s.exited:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// diagnostics are the last ones published, by absolute path.
func (s *server) diagnostics() map[string][]diagnostic {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string][]diagnostic, len(s.diags))
	for p, f := range s.diags {
		out[p] = f.items
	}
	return out
}

// call sends a request once the server is initialized.
func (s *server) call(ctx context.Context, method string, params, out any) error {
	select {
	case <-s.ready:
	case <-ctx.Done():
		return ctx.Err()
	}
	if err := s.err(); err != nil {
		return err
	}
	return s.conn.call(ctx, method, params, out)
}

// err is why the server is not usable: it failed to start or ended.
func (s *server) err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.initErr != nil {
		return s.initErr
	}
	select {
	case <-s.exited:
		return errClosed
	case <-s.conn.done:
		return s.conn.closedErr()
	default:
	}
	return nil
}

// stop asks the server to shut down and exit, and ends its process
// group when it has not within grace.
func (s *server) stop(grace time.Duration) {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	if !isClosed(s.ready) || s.err() != nil {
		// Still starting (it cannot be asked yet), or broken: nothing
		// to wait for.
		s.kill()
		<-s.exited
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	if s.conn.call(ctx, "shutdown", nil, nil) == nil {
		s.conn.notify("exit", nil)
	}
	cancel()
	select {
	case <-s.exited:
	case <-time.After(grace):
		s.kill()
		<-s.exited
	}
}

// kill ends the server's process group: the sandbox and all in it.
func (s *server) kill() {
	if isClosed(s.exited) {
		return // reaped: its process group id may be another's now
	}
	if p := s.cmd.Process; p != nil {
		syscall.Kill(-p.Pid, syscall.SIGKILL)
		p.Kill()
	}
}

// exitError says how a server's process ended, with the last line of
// what it wrote on stderr.
func exitError(err error, stderr string) error {
	if err == nil {
		err = errors.New("exited")
	}
	if line := lastLine(stderr); line != "" {
		return fmt.Errorf("%w: %s", err, line)
	}
	return err
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

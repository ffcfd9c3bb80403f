package shell

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentcli/agent/tools"
)

// GitWatch is the git guard (gitguard.go) of the programs of one project
// that may write it and outlive a call: a project's MCP servers now,
// whatever else a project defines that runs beside a conversation
// later. What run_command's guard does around one command, it does
// around their lives:
//
//   - when the first starts, it looks for the project's repositories;
//     every program started while one lives sees them read-only, with
//     the files and folders their configs name (Guarded.Protected);
//   - after each call of a program (Guarded.Check), and when one stops
//     (Guarded.Stopped), it looks again and moves into .agent/quarantine
//     every repository, or file git reads, that appeared since: while a
//     program that may write the project runs, a new repository cannot
//     be told from one it planted, whoever made it;
//   - run_command asks it before each command (Options.Watch), so that a
//     repository a program planted between two calls is moved away and
//     told, never taken for the person's by the command's own guard.
//
// Once the last program stopped, the next one starts from a new look: a
// repository the person made meanwhile is theirs. One GitWatch serves
// one project folder in one conversation; it is safe for concurrent use.
type GitWatch struct {
	root     string
	env      []string
	scanTime time.Duration

	mu    sync.Mutex
	live  []string  // who runs now, one entry per program ("MCP server docs")
	guard *gitGuard // what was there when the first of them started; nil when none runs
	ro    []string  // the paths their sandboxes show read-only
}

// NewGitWatch is the watch of the project folder root with run_command's
// settings o (the person's environment, the time a walk may take).
func NewGitWatch(root string, o Options) *GitWatch {
	o = o.withDefaults()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	return &GitWatch{root: root, env: o.Env, scanTime: o.GitScanTime}
}

// Guarded is one program under a GitWatch, from its start to its end.
type Guarded struct {
	w       *GitWatch
	who     string
	stopped bool
}

// Start is called before the program who ("MCP server docs") starts;
// Stopped must follow once it has ended (or failed to start).
func (w *GitWatch) Start(who string) *Guarded {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.guard == nil {
		w.guard = newGitGuard(w.root, w.env, w.scanTime)
		w.ro = w.guard.readOnly(nil)
	}
	w.live = append(w.live, who)
	return &Guarded{w: w, who: who}
}

// Protected are the paths the program's sandbox shows read-only
// (Sandbox.Protected): the repositories there when the first program
// started, and the files and folders their configs name.
func (p *Guarded) Protected() []string {
	p.w.mu.Lock()
	defer p.w.mu.Unlock()
	return slices.Clone(p.w.ro)
}

// Check looks for what appeared in the project since the programs
// started, moves it away, and adds to r what the model and the person
// are told, as run_command's check does for a command: r.Alerts, the
// content (or the message of an error), r.Halt when part of the project
// could not be looked into.
func (p *Guarded) Check(r *tools.Result) {
	p.w.mu.Lock()
	defer p.w.mu.Unlock()
	if p.w.guard != nil {
		addGitReport(r, p.w.guard.check(p.w.scanTime), p.subject())
	}
}

// Stopped is told once the program has ended: it looks as Check does,
// and returns what the person must hear, one line each (no call holds
// them). Later calls return nothing.
func (p *Guarded) Stopped() []string {
	w := p.w
	w.mu.Lock()
	defer w.mu.Unlock()
	if p.stopped {
		return nil
	}
	p.stopped = true
	var r tools.Result
	if w.guard != nil {
		addGitReport(&r, w.guard.check(w.scanTime), p.subject())
	}
	if i := slices.Index(w.live, p.who); i >= 0 {
		w.live = slices.Delete(w.live, i, i+1)
	}
	if len(w.live) == 0 {
		w.guard, w.ro = nil, nil
	}
	return r.Alerts
}

// subject names the program that planted what the guard moved, with
// the others that ran beside it.
func (p *Guarded) subject() subject { return programSubject(p.who, p.w.live) }

// before is run_command's look before a command: what the programs that
// run planted since the last look, moved away (none when none runs).
func (w *GitWatch) before() (gitReport, subject, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.guard == nil {
		return gitReport{}, subject{}, false
	}
	return w.guard.check(w.scanTime), programSubject("", w.live), true
}

// programSubject names who planted what the watch found: the program
// who, or, unknown, the programs that ran.
func programSubject(who string, live []string) subject {
	names := slices.Compact(slices.Sorted(slices.Values(live)))
	names = slices.DeleteFunc(names, func(n string) bool { return n == who })
	switch {
	case who != "" && len(names) == 0:
	case who != "":
		who += " (or another program of the project: " + strings.Join(names, ", ") + ")"
	default:
		who = "a program in the sandbox (" + strings.Join(names, ", ") + " or another)"
	}
	return subject{who: who,
		rule: "Programs of the project run in the sandbox and cannot create or change git repositories, nor the files git's config names: git is for the user to run."}
}
